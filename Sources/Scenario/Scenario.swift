public import GestureScript
public import StrictJSON
public import Verifier

/// A scenario: a gesture script whose steps say what must come out of the uinput device, and by when;
/// scenario-wide latency limits; and how the phone connects.
///
/// ```json
/// { "name": "…", "requirements": ["R3.3"], "settings": { "mode": "presentation" },
///   "run": { "writePath": "fd" }, "limits": { "p95Ms": 60, "maxMs": 150 },
///   "steps": [ { "button": "back", "expect": { "keys": ["KEY_LEFT 1", "KEY_LEFT 0"], "withinMs": 200 } } ] }
/// ```
public struct Scenario: Sendable {
    public var file: String
    public var script: GestureScript
    /// One per step; nil for a step that expects nothing in particular (a wait, a mode change).
    public var expectations: [StepExpectation?]
    public var limits: LatencyLimits
    public var run: RunSettings

    public var name: String { script.name }

    /// Reads and checks a scenario file, reporting every problem with the file and its JSON path.
    public static func load(contentsOf path: String) throws(ScriptError) -> Scenario {
        try parse(try GestureScript.readJSON(contentsOf: path), file: path)
    }

    public static func parse(_ value: JSONValue, file: String) throws(ScriptError) -> Scenario {
        let box = ReadBox()
        let script = try GestureScript.parse(value, file: file, extension: GestureScript.Extension(
            topKeys: ["limits", "run"], stepKeys: ["expect"],
            read: { top, steps in
                var reader = ScenarioReader()
                box.limits = top["limits"].map { reader.limits($0, at: .root.appending("limits")) } ?? LatencyLimits()
                box.run = top["run"].map { reader.run($0, at: .root.appending("run")) } ?? RunSettings()
                for (index, extras) in steps.sorted(by: { $0.key < $1.key }) {
                    if let expect = extras["expect"] {
                        box.expectations[index] = reader.expectation(
                            expect, at: JSONPath.root.appending("steps").appending(index).appending("expect"))
                    }
                }
                return reader.problems
            }))
        let expectations = (0..<script.steps.count).map { box.expectations[$0] ?? nil }
        return Scenario(file: file, script: script, expectations: expectations, limits: box.limits, run: box.run)
    }
}

/// Scenario-wide latency limits (before the rig's latency scale).
public struct LatencyLimits: Sendable, Hashable {
    public var p95Ms: Double?
    public var maxMs: Double?
    public init(p95Ms: Double? = nil, maxMs: Double? = nil) {
        self.p95Ms = p95Ms
        self.maxMs = maxMs
    }
}

/// How the virtual central talks to the peripheral.
public struct RunSettings: Sendable, Hashable {
    public enum WritePath: String, Sendable, Hashable, CaseIterable {
        /// `WriteValue` over D-Bus.
        case dbus
        /// `AcquireWrite`: a socket that bypasses D-Bus.
        case fd
    }

    public enum Pairing: String, Sendable, Hashable, CaseIterable {
        /// Pair with the code the peripheral shows before the steps.
        case pair
        /// Stay unpaired (scenarios about refusals).
        case none
    }

    public var writePath: WritePath = .dbus
    public var pairing: Pairing = .pair
    public init() {}
}

/// Carries what the extension reads out of the parse (the closure cannot return it).
private final class ReadBox: @unchecked Sendable {
    // Safety: written and read on one thread, within `Scenario.parse`.
    var limits = LatencyLimits()
    var run = RunSettings()
    var expectations: [Int: StepExpectation?] = [:]
}
