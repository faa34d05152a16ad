import Foundation

/// The texts `cleaned.csv` and `cleaned.xlsx` share (`CleanedSharedStrings`), gathered once for both, on whichever
/// thread first needs them: the workbook's preparation, or a block of `cleaned.csv` that another thread reaches
/// first, which then waits for them.
final class CleanedTexts: @unchecked Sendable {
    let reconciliation: Reconciliation
    /// The building names and finding ids of both files.
    let annotations: CleanedAnnotations
    private let lock = NSLock()
    private var gathered: CleanedSharedStrings?

    init(_ reconciliation: Reconciliation) {
        self.reconciliation = reconciliation
        annotations = CleanedAnnotations(reconciliation)
    }

    /// The shared strings, gathered on the first call.
    var sharedStrings: CleanedSharedStrings {
        lock.withLock {
            if let gathered { return gathered }
            let made = CleanedSharedStrings(reconciliation, annotations: annotations)
            gathered = made
            return made
        }
    }
}
