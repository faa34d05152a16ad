import StocktakeCore

/// How a command ends when it ends with a status other than 0 and no error to report: thrown, so that a command
/// can be run and tested in-process, and turned into the process's exit status only by `main.swift`.
struct CommandExit: Error, Equatable {
    /// The process's exit status.
    let status: Int32
    /// Text written to standard error as it is (no `stocktake:` in front), or `nil` for none.
    let message: String?

    init(status: Int32, message: String? = nil) {
        self.status = status
        self.message = message
    }

    init(_ status: ExitStatus, message: String? = nil) {
        self.init(status: status.rawValue, message: message)
    }

    /// `stocktake lookup` found nothing: status 1, like grep.
    static let nothingMatched = CommandExit(status: 1)
}
