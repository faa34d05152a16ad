import Foundation
import StocktakeCore

/// How the benchmark writes its numbers: seconds with two decimals, megabytes (10⁶ bytes) and rates with
/// thousands separators, ratios with a `×`.
enum Quantity {
    /// "53.92 s", "0.052 s", "0.0004 s".
    static func seconds(_ value: Double) -> String {
        if value >= 0.1 { return String(format: "%.2f s", value) }
        return value >= 0.01 ? String(format: "%.3f s", value) : String(format: "%.4f s", value)
    }

    /// "5,012 MB", "3.4 MB" (below 100 MB, one decimal).
    static func megabytes(_ bytes: Int) -> String {
        let value = Double(bytes) / 1e6
        return value < 100 ? String(format: "%.1f MB", value) : grouped(Int(value.rounded())) + " MB"
    }

    /// `count` per second of `seconds`, "121,893" (0 when no time passed).
    static func rate(_ count: Double, per seconds: Double) -> String {
        guard seconds > 0 else { return "0" }
        let value = count / seconds
        return value < 100 ? String(format: "%.1f", value) : grouped(Int(value.rounded()))
    }

    /// "1,078×", "3.37×", "0.98×".
    static func ratio(_ numerator: Double, _ denominator: Double) -> String {
        guard denominator > 0 else { return "–" }
        let value = numerator / denominator
        return value < 100 ? String(format: "%.2f×", value) : grouped(Int(value.rounded())) + "×"
    }
}
