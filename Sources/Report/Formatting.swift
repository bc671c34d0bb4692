import Foundation
import Records

/// Numbers as the reports print them.
enum Formatting {
    /// A time in ms with as many decimals as its size needs: `0.052`, `8.05`, `13.1`, `1204`; `-` for none.
    static func ms(_ value: Double?) -> String {
        guard let value else { return "-" }
        let size = abs(value)
        let decimals = size < 1 ? 3 : size < 10 ? 2 : size < 1000 ? 1 : 0
        return String(format: "%.\(decimals)f", value)
    }

    /// `1.23×`; `-` for none.
    static func ratio(_ value: Double?) -> String {
        value.map { String(format: "%.2f×", $0) } ?? "-"
    }

    /// `+2.4` / `-0.8` ms; `-` for none.
    static func signedMs(_ value: Double?) -> String {
        guard let value else { return "-" }
        return (value > 0 ? "+" : value < 0 ? "−" : "±") + ms(abs(value))
    }

    /// A duration in seconds from ms: `2.1 s`, `61.2 s`; `-` for none.
    static func seconds(_ valueMs: Double?) -> String {
        valueMs.map { String(format: "%.1f s", $0 / 1000) } ?? "-"
    }

    /// A plain number: `4`, `0.5`.
    static func plain(_ value: Double) -> String {
        value.rounded() == value && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }

    /// `40 passed, 1 failed`: `RunTotals.line`.
    static func totals(_ results: RunResults) -> String {
        RunTotals.line(results.scenarios.map(\.outcome))
    }
}
