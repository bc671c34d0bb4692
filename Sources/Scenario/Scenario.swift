public import GestureModel
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
    /// One per step: what a `linkDrop` step expects of the phone's reconnection (R12).
    public var linkExpectations: [LinkExpectation?]
    /// One per step: whether the phone is idle or active when the step ends (R11).
    public var phoneExpectations: [Activity?]
    /// What the phone's list of remembered computers holds after connecting (R6).
    public var devicesExpectation: DevicesExpectation?
    public var limits: LatencyLimits
    public var run: RunSettings

    public var name: String { script.name }

    /// Reads and checks a scenario file, reporting every problem with the file and its JSON path.
    public static func load(contentsOf path: String) throws(ScriptError) -> Scenario {
        try parse(try GestureScript.readJSON(contentsOf: path), file: path)
    }

    /// The kind of `steps[index]` in the raw document: its one key besides `expect`.
    private static func stepKind(_ document: JSONValue, _ index: Int) -> String? {
        guard case .object(let top) = document, case .array(let steps)? = top["steps"], steps.indices.contains(index),
              case .object(let step) = steps[index] else { return nil }
        return step.keys.first { $0 != "expect" }
    }

    public static func parse(_ value: JSONValue, file: String) throws(ScriptError) -> Scenario {
        let box = ReadBox()
        let script = try GestureScript.parse(value, file: file, extension: GestureScript.Extension(
            topKeys: ["limits", "run", "expectDevices"], stepKeys: ["expect"],
            read: { top, steps in
                var reader = ScenarioReader()
                box.limits = top["limits"].map { reader.limits($0, at: .root.appending("limits")) } ?? LatencyLimits()
                box.run = top["run"].map { reader.run($0, at: .root.appending("run")) } ?? RunSettings()
                box.devices = top["expectDevices"].flatMap { reader.devices($0, at: .root.appending("expectDevices")) }
                for (index, extras) in steps.sorted(by: { $0.key < $1.key }) {
                    guard let expect = extras["expect"] else { continue }
                    let path = JSONPath.root.appending("steps").appending(index).appending("expect")
                    let kind = Self.stepKind(value, index)
                    let isLinkStep = kind.map { ["linkDrop", "disconnect", "reconnect"].contains($0) } ?? false
                    if case .object(let object) = expect, object["link"] == nil, isLinkStep {
                        reader.report(JSONSchemaError(
                            path, "a \(kind ?? "link") step is judged by a link expectation, e.g. {\"link\": \"\(kind == "disconnect" ? "disconnected" : "reconnected")\"}"))
                        continue
                    }
                    if case .object(let object) = expect, object["link"] != nil, !isLinkStep {
                        reader.report(JSONSchemaError(
                            path.appending("link"), "only a linkDrop, disconnect or reconnect step has a link expectation; this is a \(kind ?? "step") step"))
                        continue
                    }
                    if case .object(var object) = expect, let phone = object["phone"] {
                        box.phones[index] = reader.phone(phone, at: path.appending("phone"))
                        object = JSONObject(object.entries.filter { $0.key != "phone" })
                        if !object.isEmpty { box.expectations[index] = reader.expectation(.object(object), at: path) }
                    } else if case .object(let object) = expect, let link = object["link"] {
                        box.links[index] = reader.link(link, object, at: path, step: kind ?? "")
                    } else {
                        box.expectations[index] = reader.expectation(expect, at: path)
                    }
                }
                return reader.problems
            }))
        let expectations = (0..<script.steps.count).map { box.expectations[$0] ?? nil }
        let links = (0..<script.steps.count).map { box.links[$0] ?? nil }
        let phones = (0..<script.steps.count).map { box.phones[$0] ?? nil }
        return Scenario(
            file: file, script: script, expectations: expectations, linkExpectations: links, phoneExpectations: phones,
            devicesExpectation: box.devices, limits: box.limits, run: box.run)
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
    /// On the D-Bus path: send commands as write requests (each confirmed) instead of write commands.
    public var confirmedWrites = false
    /// R12: the phone tries to reconnect this often after a dropped link (5 s; shorter for tests)…
    public var reconnectInterval: Duration = .seconds(5)
    /// …at most this many times, then shows "disconnected".
    public var maxReconnectAttempts = 10
    /// Computers the phone already remembers before it connects (R6), oldest first: `02:00:00:00:00:01`…
    public var knownDevices = 0
    public init() {}
}

/// Carries what the extension reads out of the parse (the closure cannot return it).
private final class ReadBox: @unchecked Sendable {
    // Safety: written and read on one thread, within `Scenario.parse`.
    var limits = LatencyLimits()
    var run = RunSettings()
    var expectations: [Int: StepExpectation?] = [:]
    var links: [Int: LinkExpectation?] = [:]
    var phones: [Int: Activity?] = [:]
    var devices: DevicesExpectation?
}

/// What the phone's remembered computers must be after it connected (R6: at most 5, oldest evicted).
public struct DevicesExpectation: Sendable, Hashable {
    public var count: Int?
    /// Addresses that must have been evicted.
    public var evicted: [String]

    public init(count: Int? = nil, evicted: [String] = []) {
        self.count = count
        self.evicted = evicted
    }
}

/// What a `linkDrop` step expects: the phone reconnects (within `withinMs` of the drop, in at most
/// `attemptsAtMost` tries), or gives up and shows "disconnected" (R12).
public struct LinkExpectation: Sendable, Hashable {
    public enum Outcome: String, Sendable, Hashable, CaseIterable {
        case reconnected, disconnected
    }

    public var outcome: Outcome
    public var attemptsAtMost: Int?
    public var withinMs: Double?

    public init(outcome: Outcome, attemptsAtMost: Int? = nil, withinMs: Double? = nil) {
        self.outcome = outcome
        self.attemptsAtMost = attemptsAtMost
        self.withinMs = withinMs
    }
}
