package import LatencyStats
package import StrictJSON

extension LatencySummary {
    /// The summary as every file we write has it: `{ "count": 30, "p50": 9.1, "p95": 15.2, "p99": 17.9,
    /// "max": 18.0 }`, in ms rounded to the µs, a missing percentile as `null`. The one encoder of a latency
    /// summary in the package: results.json and bench.json both use it.
    package var jsonObject: JSONObject {
        JSONObject([
            ("count", .number(Double(count))), ("p50", Self.number(p50)), ("p95", Self.number(p95)),
            ("p99", Self.number(p99)), ("max", Self.number(max)),
        ])
    }

    /// `jsonObject` as a value.
    package var jsonValue: JSONValue { .object(jsonObject) }

    /// A time in ms rounded to the µs (3 decimals), as the files carry it; `null` for none.
    static func number(_ value: Double?) -> JSONValue {
        value.map { .number(microseconds($0)) } ?? .null
    }

    /// `8.40712` → `8.407`.
    static func microseconds(_ value: Double) -> Double {
        (value * 1000).rounded() / 1000
    }
}
