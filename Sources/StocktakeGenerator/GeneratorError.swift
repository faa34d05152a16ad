/// Why an account could not be generated; each description says what to change.
public enum GeneratorError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Fewer assets were requested than the injections need.
    case tooFewAssets(requested: Int, minimum: Int)
    /// More assets were requested than the identifier space holds.
    case tooManyAssets(requested: Int, identifier: String, digits: Int, maximum: Int)
    /// Injected discrepancies asked for more densely than the assets leave room for.
    case injectionsTooDense(requested: Int, minimum: Int)
    /// An identifier width outside the supported range.
    case digitsOutOfRange(option: String, value: Int, supported: ClosedRange<Int>)
    /// The output folder or one of its files could not be written.
    case cannotWrite(path: String, reason: String)

    /// A sentence a user can act on.
    public var description: String {
        switch self {
        case .tooFewAssets(let requested, let minimum):
            return "\(requested) assets are too few to inject every discrepancy; ask for at least \(minimum)."
        case .tooManyAssets(let requested, let identifier, let digits, let maximum):
            return "\(requested) assets do not fit \(digits)-digit \(identifier): at most \(maximum) fit; "
                + "ask for fewer assets or more digits."
        case .injectionsTooDense(let requested, let minimum):
            return "one set of injected discrepancies per \(requested) assets leaves no room for them; "
                + "ask for one per \(minimum) assets or more."
        case .digitsOutOfRange(let option, let value, let supported):
            return "\(value) \(option) are not supported; use \(supported.lowerBound) to \(supported.upperBound)."
        case .cannotWrite(let path, let reason):
            let sentence = reason.hasSuffix(".") ? String(reason.dropLast()) : reason
            return "Cannot write \(path): \(sentence). Check that the folder exists and is writable."
        }
    }
}
