import Foundation
import LatencyStats
package import Records
import StrictJSON

/// Results documents for the tests (RecordsTests, ReportTests), written as docs/results-format.md describes them.
package enum ResultsFixtures {
    /// A realistic run on the vm rig: a passed button scenario with stages, a failed tap scenario (one step failed
    /// with expected vs actual; one step without stages), a passed swipe scenario with an unchecked wait, and a
    /// scenario whose device under test failed. `latency` is what `hil run` writes for these steps.
    package static let realistic = #"""
        {
          "format": "hil-results/1",
          "rig": "vm",
          "startedAt": "2026-11-21T09:10:00Z",
          "wallMs": 61234,
          "environment": {
            "kernel": "6.1.0-56-amd64", "bluez": "5.66", "rig": "vm", "latencyScale": 4,
            "peripheralAdapter": "hci0", "centralAdapter": "hci1", "host": "nightly-1", "writePath": null
          },
          "passed": 2, "failed": 2,
          "latency": {
            "all": { "count": 13, "p50": 10.407, "p95": 221.7, "p99": 221.7, "max": 221.7 },
            "byKind": {
              "button": {
                "count": 6, "p50": 8.407, "p95": 13.1, "p99": 13.1, "max": 13.1,
                "stages": {
                  "gesture":    { "count": 6, "p50": 0, "p95": 0, "p99": 0, "max": 0 },
                  "link":       { "count": 6, "p50": 7.203, "p95": 11.6, "p99": 11.6, "max": 11.6 },
                  "peripheral": { "count": 6, "p50": 1.15, "p95": 1.44, "p99": 1.44, "max": 1.44 },
                  "kernel":     { "count": 6, "p50": 0.05, "p95": 0.06, "p99": 0.06, "max": 0.06 }
                }
              },
              "swipe": {
                "count": 3, "p50": 182.527, "p95": 221.7, "p99": 221.7, "max": 221.7,
                "stages": {
                  "gesture":    { "count": 3, "p50": 176.127, "p95": 208, "p99": 208, "max": 208 },
                  "link":       { "count": 3, "p50": 9.807, "p95": 12.4, "p99": 12.4, "max": 12.4 },
                  "peripheral": { "count": 3, "p50": 1.1, "p95": 1.2, "p99": 1.2, "max": 1.2 },
                  "kernel":     { "count": 3, "p50": 0.1, "p95": 0.1, "p99": 0.1, "max": 0.1 }
                }
              },
              "tap": {
                "count": 4, "p50": 9.703, "p95": 48.2, "p99": 48.2, "max": 48.2,
                "stages": {
                  "gesture":    { "count": 3, "p50": 0, "p95": 0, "p99": 0, "max": 0 },
                  "link":       { "count": 3, "p50": 8.407, "p95": 46.8, "p99": 46.8, "max": 46.8 },
                  "peripheral": { "count": 3, "p50": 1.23, "p95": 1.33, "p99": 1.33, "max": 1.33 },
                  "kernel":     { "count": 3, "p50": 0.07, "p95": 0.09, "p99": 0.09, "max": 0.09 }
                }
              }
            }
          },
          "scenarios": [
            {
              "file": "Scenarios/buttons/buttons-by-mode.json",
              "name": "back and forward buttons follow the mode",
              "requirements": ["R3.1", "R3.2"],
              "outcome": "passed",
              "durationMs": 2100,
              "statusNotifications": 1,
              "latencyMs": { "count": 6, "p50": 8.4, "p95": 13.1, "p99": 13.1, "max": 13.1 },
              "phasesMs": { "connected": 1130, "steps done": 1700 },
              "steps": [
                { "index": 0, "kind": "mode", "outcome": "unchecked", "commands": 1 },
                { "index": 1, "kind": "button", "outcome": "passed", "commands": 1, "latencyMs": 8.05,
                  "stagesMs": { "gesture": 0, "link": 6.9, "peripheral": 1.1, "kernel": 0.05 } },
                { "index": 2, "kind": "button", "outcome": "passed", "commands": 1, "latencyMs": 7.62,
                  "stagesMs": { "gesture": 0, "link": 6.5, "peripheral": 1.07, "kernel": 0.05 } },
                { "index": 3, "kind": "button", "outcome": "passed", "commands": 1, "latencyMs": 8.4,
                  "stagesMs": { "gesture": 0, "link": 7.2, "peripheral": 1.15, "kernel": 0.05 } },
                { "index": 4, "kind": "button", "outcome": "passed", "commands": 1, "latencyMs": 9.9,
                  "stagesMs": { "gesture": 0, "link": 8.6, "peripheral": 1.24, "kernel": 0.06 } },
                { "index": 5, "kind": "button", "outcome": "passed", "commands": 1, "latencyMs": 11.3,
                  "stagesMs": { "gesture": 0, "link": 9.9, "peripheral": 1.34, "kernel": 0.06 } },
                { "index": 6, "kind": "button", "outcome": "passed", "commands": 1, "latencyMs": 13.1,
                  "stagesMs": { "gesture": 0, "link": 11.6, "peripheral": 1.44, "kernel": 0.06 } }
              ]
            },
            {
              "file": "Scenarios/taps/tap-and-double-tap.json",
              "name": "a tap clicks, two taps within 300 ms double-click",
              "requirements": ["R2.1", "R2.3"],
              "outcome": "failed",
              "durationMs": 3350,
              "statusNotifications": 1,
              "latencyMs": { "count": 4, "p50": 9.7, "p95": 48.2, "p99": 48.2, "max": 48.2 },
              "phasesMs": { "connected": 1210, "steps done": 2900 },
              "steps": [
                { "index": 0, "kind": "tap", "outcome": "passed", "commands": 1, "latencyMs": 9.7,
                  "stagesMs": { "gesture": 0, "link": 8.4, "peripheral": 1.21, "kernel": 0.09 } },
                { "index": 1, "kind": "tap", "outcome": "passed", "commands": 1, "latencyMs": 8.8,
                  "stagesMs": { "gesture": 0, "link": 7.5, "peripheral": 1.23, "kernel": 0.07 } },
                { "index": 2, "kind": "tap", "outcome": "failed", "commands": 2, "latencyMs": 48.2,
                  "stagesMs": { "gesture": 0, "link": 46.8, "peripheral": 1.33, "kernel": 0.07 },
                  "message": "expected within 40 ms (10 ms × latency scale 4): BTN_LEFT 1, BTN_LEFT 0, BTN_LEFT 1, BTN_LEFT 0\nactual:\n  +9.1 ms   BTN_LEFT 1\n  +9.2 ms   BTN_LEFT 0\n  +48.2 ms  BTN_LEFT 1\n  +48.3 ms  BTN_LEFT 0\nthe second click came 39.1 ms after the first; limit 40 ms from the step's start" },
                { "index": 3, "kind": "tap", "outcome": "passed", "commands": 1, "latencyMs": 10.4 }
              ]
            },
            {
              "file": "Scenarios/cursor/swipe-moves-cursor.json",
              "name": "a swipe moves the cursor by the scaled distance",
              "requirements": ["R1.1"],
              "outcome": "passed",
              "durationMs": 2800,
              "statusNotifications": 1,
              "latencyMs": { "count": 3, "p50": 182.5, "p95": 221.7, "p99": 221.7, "max": 221.7 },
              "phasesMs": { "connected": 1100, "steps done": 2500 },
              "steps": [
                { "index": 0, "kind": "swipe", "outcome": "passed", "commands": 12, "latencyMs": 182.5,
                  "stagesMs": { "gesture": 176, "link": 5.3, "peripheral": 1.1, "kernel": 0.1 } },
                { "index": 1, "kind": "wait", "outcome": "unchecked", "commands": 0 },
                { "index": 2, "kind": "swipe", "outcome": "passed", "commands": 14, "latencyMs": 221.7,
                  "stagesMs": { "gesture": 208, "link": 12.4, "peripheral": 1.2, "kernel": 0.1 } },
                { "index": 3, "kind": "swipe", "outcome": "passed", "commands": 9, "latencyMs": 139.0,
                  "stagesMs": { "gesture": 128, "link": 9.8, "peripheral": 1.1, "kernel": 0.1 } }
              ]
            },
            {
              "file": "Scenarios/media/media-keys.json",
              "name": "media keys in media mode",
              "requirements": ["R7.1"],
              "outcome": "error",
              "durationMs": 5012,
              "statusNotifications": 0,
              "latencyMs": { "count": 0, "p50": null, "p95": null, "p99": null, "max": null },
              "message": "the device under test failed: hil peripheral exited with status 1 before advertising\nlast log line: uinput: Permission denied (run `hil doctor`)",
              "phasesMs": {},
              "steps": [
                { "index": 0, "kind": "mode", "outcome": "unchecked", "commands": 0 },
                { "index": 1, "kind": "media", "outcome": "unchecked", "commands": 0 }
              ]
            }
          ]
        }
        """#

    package static func realisticResults() throws -> RunResults {
        try RunResults.parse(Array(realistic.utf8), file: "results/realistic.json")
    }

    /// What `hil run` wrote before formats, shards, environments, stages and `latency` existed.
    package static let older = """
        {
          "rig": "virtual", "startedAt": "2026-10-02T18:00:00Z", "passed": 1, "failed": 0,
          "scenarios": [
            {
              "file": "Scenarios/basic/swipe.json", "name": "swipe", "requirements": [], "outcome": "passed",
              "durationMs": 1900, "statusNotifications": 1,
              "latencyMs": { "count": 3, "p50": 5.2, "p95": 9.9, "max": 9.9 },
              "steps": [
                { "index": 0, "kind": "swipe", "outcome": "passed", "commands": 8, "latencyMs": 5.2 },
                { "index": 1, "kind": "tap", "outcome": "passed", "commands": 1, "latencyMs": 3.1 },
                { "index": 2, "kind": "swipe", "outcome": "passed", "commands": 8, "latencyMs": 9.9 }
              ]
            }
          ]
        }
        """

    /// One shard of a run as `hil run --shard index/count` writes it: a swipe scenario and a tap scenario whose
    /// steps carry the given latencies (stages in fixed shares of each), and the shard's own `latency`.
    package static func shard(index: Int, count: Int, host: String, swipes: [Double], taps: [Double], failing: Bool = false)
        -> String
    {
        func step(_ number: Int, _ kind: String, _ latency: Double) -> JSONValue {
            let gesture = kind == "swipe" ? (latency * 0.9 * 1000).rounded() / 1000 : 0
            let link = ((latency - gesture) * 0.85 * 1000).rounded() / 1000
            let peripheral = ((latency - gesture - link) * 0.9 * 1000).rounded() / 1000
            let kernel = ((latency - gesture - link - peripheral) * 1000).rounded() / 1000
            return .object(JSONObject([
                ("index", .number(Double(number))), ("kind", .string(kind)), ("outcome", "passed"), ("commands", 3),
                ("latencyMs", .number(latency)),
                ("stagesMs", .object(JSONObject([
                    ("gesture", .number(gesture)), ("link", .number(link)), ("peripheral", .number(peripheral)),
                    ("kernel", .number(kernel)),
                ]))),
            ]))
        }
        func summary(_ samples: [Double]) -> JSONValue {
            let summary = LatencyRecorder(samples).summary
            return .object(JSONObject([
                ("count", .number(Double(summary.count))), ("p50", summary.p50.map(JSONValue.number) ?? .null),
                ("p95", summary.p95.map(JSONValue.number) ?? .null), ("p99", summary.p99.map(JSONValue.number) ?? .null),
                ("max", summary.max.map(JSONValue.number) ?? .null),
            ]))
        }
        let scenarios: [JSONValue] = [
            .object(JSONObject([
                ("file", .string("Scenarios/cursor/swipes-\(index).json")), ("name", .string("swipes of shard \(index)")),
                ("requirements", ["R1.1"]), ("outcome", "passed"), ("durationMs", 4000), ("statusNotifications", 2),
                ("latencyMs", summary(swipes)),
                ("steps", .array(swipes.enumerated().map { step($0.offset, "swipe", $0.element) })),
            ])),
            .object(JSONObject([
                ("file", .string("Scenarios/taps/taps-\(index).json")), ("name", .string("taps of shard \(index)")),
                ("requirements", ["R2.1"]), ("outcome", failing ? "failed" : "passed"), ("durationMs", 3000),
                ("statusNotifications", 1), ("latencyMs", summary(taps)),
                ("steps", .array(taps.enumerated().map { step($0.offset, "tap", $0.element) })),
            ])),
        ]
        let document: JSONValue = .object(JSONObject([
            ("format", "hil-results/1"), ("rig", "hardware"), ("startedAt", .string("2026-11-21T09:1\(index):00Z")),
            ("wallMs", .number(Double(30_000 + index * 1000))),
            ("shard", .object(JSONObject([("index", .number(Double(index))), ("count", .number(Double(count)))]))),
            ("environment", .object(JSONObject([
                ("kernel", "6.1.0-56-amd64"), ("bluez", "5.66"), ("rig", "hardware"), ("latencyScale", 1),
                ("peripheralAdapter", "hci0"), ("centralAdapter", "hci1"), ("host", .string(host)), ("writePath", nil),
            ]))),
            ("passed", .number(failing ? 1 : 2)), ("failed", .number(failing ? 1 : 0)),
            ("latency", .object(JSONObject([
                ("all", summary(swipes + taps)),
                ("byKind", .object(JSONObject([("swipe", summary(swipes)), ("tap", summary(taps))]))),
            ]))),
            ("scenarios", .array(scenarios)),
        ]))
        return JSONWriter(pretty: true).string(document)
    }

    /// `count` latencies spread evenly over `range`, shuffled with a fixed seed.
    package static func samples(_ count: Int, in range: ClosedRange<Double>, seed: UInt64) -> [Double] {
        var generator = SplitMix64(seed: seed)
        return (0..<count).map { _ in (Double.random(in: range, using: &generator) * 1000).rounded() / 1000 }
    }
}
