import Foundation
import HILTestSupport
import LatencyStats
import Records
import StrictJSON

/// Nights of a history as `hil run` writes their results.json: a tap scenario and a swipe scenario over ble, a
/// button scenario over udp, and what the night recorded of where it ran.
enum HistoryFixtures {
    struct Night {
        var startedAt: String
        var commit: String? = "0123456789abcdef0123456789abcdef01234567"
        var kernel: String? = "6.1.0-56-amd64"
        var radio: String? = "btvirt"
        /// Added to every ble tap's latency.
        var tapShift = 0.0
        var tapOutcomes: [String] = ["passed"]
        var seed: UInt64 = 1
    }

    /// The night's results.json.
    static func results(_ night: Night) -> String {
        var samples = SplitMix64(seed: night.seed)
        func draws(_ count: Int, _ median: Double, plus shift: Double = 0) -> [Double] {
            (0..<count).map { _ in
                let u1 = Double.random(in: Double.ulpOfOne..<1, using: &samples), u2 = Double.random(in: 0..<1, using: &samples)
                let normal = (-2 * log(u1)).squareRoot() * cos(2 * .pi * u2)
                return ((median * exp(0.25 * normal) + shift) * 1000).rounded() / 1000
            }
        }
        func scenario(_ file: String, _ name: String, _ transport: String, _ kind: String, _ latencies: [Double],
                      outcome: String, repetition: Int? = nil) -> JSONValue
        {
            var object = JSONObject([
                ("file", .string(file)), ("name", .string(name)), ("requirements", ["R1.1"]), ("outcome", .string(outcome)),
                ("durationMs", 2000), ("transport", .string(transport)),
            ])
            if let repetition { object.set("repeat", .number(Double(repetition))) }
            object.set("steps", .array(latencies.enumerated().map { index, latency in
                .object(JSONObject([("index", .number(Double(index))), ("kind", .string(kind)), ("outcome", "passed"),
                                    ("commands", 1), ("latencyMs", .number(latency))]))
            }))
            return .object(object)
        }
        let repeated = night.tapOutcomes.count > 1
        var scenarios: [JSONValue] = night.tapOutcomes.enumerated().map { index, outcome in
            scenario("Scenarios/taps.json", "taps click", "ble", "tap", draws(40, 8, plus: night.tapShift), outcome: outcome,
                     repetition: repeated ? index + 1 : nil)
        }
        scenarios.append(scenario("Scenarios/swipes.json", "swipes move", "ble", "swipe", draws(20, 120), outcome: "passed",
                                  repetition: repeated ? 1 : nil))
        scenarios.append(scenario("Scenarios/buttons.json", "buttons", "udp", "button", draws(30, 2), outcome: "passed",
                                  repetition: repeated ? 1 : nil))
        var environment = JSONObject([("kernel", night.kernel.map(JSONValue.string) ?? .null), ("bluez", "5.66"), ("rig", "vm"),
                                      ("host", "box"), ("lanes", 1)])
        if let radio = night.radio { environment.set("radio", .string(radio)) }
        environment.set("build", "release")
        if let commit = night.commit { environment.set("commit", .string(commit)) }
        let failed = night.tapOutcomes.filter { $0 != "passed" }.count
        let document: JSONValue = .object(JSONObject([
            ("format", "hil-results/1"), ("rig", "vm"), ("startedAt", .string(night.startedAt)), ("wallMs", 60000),
            ("environment", .object(environment)), ("passed", .number(Double(scenarios.count - failed))),
            ("failed", .number(Double(failed))), ("scenarios", .array(scenarios)),
        ]))
        return JSONWriter(pretty: true).string(document)
    }

    /// Writes each night into `folder/<name>/results.json`; names are the nights' order, not their times.
    static func write(_ nights: [(name: String, night: Night)], in folder: TemporaryFolder) throws {
        for (name, night) in nights { _ = try folder.write(results(night), to: "\(name)/results.json") }
    }

    /// `count` unchanged nights, a day apart from 2026-11-01, each with its own seed.
    static func quiet(_ count: Int, from day: Int = 1) -> [Night] {
        (0..<count).map { Night(startedAt: String(format: "2026-11-%02dT02:30:00Z", day + $0), seed: UInt64(100 + day + $0)) }
    }
}
