import Foundation
import LatencyStats
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

    /// `+2.4` / `-0.8` ms; `-` for none.
    static func signedMs(_ value: Double?) -> String {
        guard let value else { return "-" }
        return (value > 0 ? "+" : value < 0 ? "−" : "±") + ms(abs(value))
    }

    /// A p50 shift as `+5.02 ms (+48 %)`; `-` for none.
    static func shift(_ shift: LatencyShift?) -> String {
        guard let shift, let ms = shift.shiftMs else { return "-" }
        let percent = shift.shiftFraction.map { fraction in
            let whole = (abs(fraction) * 100).rounded()
            return " (\(whole == 0 ? "±" : fraction < 0 ? "−" : "+")\(Int(whole)) %)"
        } ?? ""
        return signedMs(ms) + " ms" + percent
    }

    /// The test's p-value: `0.0032`, `< 0.0001`; `-` without a test.
    static func pValue(_ shift: LatencyShift?) -> String {
        guard let p = shift?.test?.pValue else { return "-" }
        return p < 0.0001 ? "< 0.0001" : String(format: p < 0.01 ? "%.4f" : "%.2f", p)
    }

    /// A percentile's 95 % interval: `7.91–8.40`; `—` without one.
    static func interval(_ estimate: PercentileInterval) -> String {
        guard let low = estimate.low, let high = estimate.high else { return "—" }
        return "\(ms(low))–\(ms(high))"
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
