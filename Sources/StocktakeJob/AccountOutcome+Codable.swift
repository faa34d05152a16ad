import StocktakeCore

/// The outcome as the one JSON line an account's child process writes to its parent.
///
/// Hand-written rather than synthesized: the status travels as its number, and a line that lacks a field or
/// names an unknown status is not an outcome at all (the parent then reports the child as ended without a result).
extension AccountOutcome: Codable {
    private enum CodingKeys: String, CodingKey {
        case account, status, assets, errors, warnings, new, open, resolved, acknowledged, newErrors, suspect, push
        case report, summary
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let number = try container.decode(Int32.self, forKey: .status)
        guard let status = ExitStatus(rawValue: number) else {
            throw DecodingError.dataCorruptedError(
                forKey: .status, in: container, debugDescription: "\(number) is not an exit status stocktake uses")
        }
        self.init(
            account: try container.decode(String.self, forKey: .account), status: status,
            push: try container.decode(String.self, forKey: .push))
        assets = try container.decode(Int.self, forKey: .assets)
        errors = try container.decode(Int.self, forKey: .errors)
        warnings = try container.decode(Int.self, forKey: .warnings)
        report = try container.decode(String.self, forKey: .report)
        // What the findings did since the last run: absent from a result line that has nothing to say about them.
        new = try container.decodeIfPresent(Int.self, forKey: .new) ?? 0
        open = try container.decodeIfPresent(Int.self, forKey: .open) ?? 0
        resolved = try container.decodeIfPresent(Int.self, forKey: .resolved) ?? 0
        acknowledged = try container.decodeIfPresent(Int.self, forKey: .acknowledged) ?? 0
        newErrors = try container.decodeIfPresent(Int.self, forKey: .newErrors) ?? 0
        suspect = try container.decodeIfPresent(Bool.self, forKey: .suspect) ?? false
        summary = try container.decodeIfPresent(String.self, forKey: .summary) ?? ""
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(account, forKey: .account)
        try container.encode(status.rawValue, forKey: .status)
        try container.encode(assets, forKey: .assets)
        try container.encode(errors, forKey: .errors)
        try container.encode(warnings, forKey: .warnings)
        try container.encode(new, forKey: .new)
        try container.encode(open, forKey: .open)
        try container.encode(resolved, forKey: .resolved)
        try container.encode(acknowledged, forKey: .acknowledged)
        try container.encode(newErrors, forKey: .newErrors)
        try container.encode(suspect, forKey: .suspect)
        try container.encode(push, forKey: .push)
        try container.encode(report, forKey: .report)
        try container.encode(summary, forKey: .summary)
    }
}
