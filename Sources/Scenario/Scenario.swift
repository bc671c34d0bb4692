public import GestureModel
public import GestureScript
public import RemoteTouchProtocol
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
    /// One per step: the status notifications the phone receives during the step (R5).
    public var statusExpectations: [StatusExpectation?] = []
    /// One per step: how many commands of each kind the computer received while the step ran (R11.2).
    public var receivedExpectations: [[String: Int]?] = []
    /// One per step: what a `pair` step's code does (R4).
    public var pairingExpectations: [PairingExpectation?] = []
    /// R10: the computer must refuse to start, its output naming these texts (with `run.uinput: "denied"`).
    public var expectedRefusal: [String]?
    /// What the phone's list of remembered computers holds after connecting (R6).
    public var devicesExpectation: DevicesExpectation?
    public var limits: LatencyLimits
    public var run: RunSettings

    public var name: String { script.name }

    /// How many checks the scenario makes: step expectations of every kind, the device list, a refusal.
    public var checkCount: Int {
        expectations.compactMap { $0 }.count + linkExpectations.compactMap { $0 }.count
            + phoneExpectations.compactMap { $0 }.count + statusExpectations.compactMap { $0 }.count
            + pairingExpectations.compactMap { $0 }.count + receivedExpectations.compactMap { $0 }.count
            + (devicesExpectation == nil ? 0 : 1) + (expectedRefusal == nil ? 0 : 1)
    }

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
            topKeys: ["limits", "run", "expectDevices", "expectRefusal"], stepKeys: ["expect"],
            read: { top, steps in
                var reader = ScenarioReader()
                box.limits = top["limits"].map { reader.limits($0, at: .root.appending("limits")) } ?? LatencyLimits()
                box.run = top["run"].map { reader.run($0, at: .root.appending("run")) } ?? RunSettings()
                box.devices = top["expectDevices"].flatMap { reader.devices($0, at: .root.appending("expectDevices")) }
                box.refusal = top["expectRefusal"].flatMap { reader.refusal($0, at: .root.appending("expectRefusal")) }
                if (box.refusal != nil) != (box.run.uinput == .denied) {
                    reader.report(JSONSchemaError(
                        box.refusal != nil ? .root.appending("expectRefusal") : .root.appending("run").appending("uinput"),
                        "expectRefusal and run.uinput \"denied\" go together: a computer denied uinput must refuse to start (R10), and only then"))
                }
                if box.refusal != nil, let index = steps.keys.sorted().first(where: { steps[$0]?["expect"] != nil }) {
                    reader.report(JSONSchemaError(
                        .root.appending("steps").appending(index).appending("expect"),
                        "a scenario whose computer must refuse to start runs no steps, so they expect nothing"))
                }
                for (index, extras) in steps.sorted(by: { $0.key < $1.key }) {
                    guard let expect = extras["expect"] else { continue }
                    let path = JSONPath.root.appending("steps").appending(index).appending("expect")
                    let kind = Self.stepKind(value, index)
                    let isLinkStep = kind.map(ScriptStep.linkActionNames.contains) ?? false
                    if case .object(let object) = expect, object["link"] == nil, isLinkStep {
                        reader.report(JSONSchemaError(
                            path, "a \(kind ?? "link") step is judged by a link expectation, e.g. {\"link\": \"\(kind == "disconnect" ? "disconnected" : "reconnected")\"}"))
                        continue
                    }
                    if case .object(let object) = expect, object["link"] != nil, !isLinkStep {
                        reader.report(JSONSchemaError(
                            path.appending("link"), "only a linkDrop, disconnect, reconnect, restartBluetoothd or restartPeripheral step has a link expectation; this is a \(kind ?? "step") step"))
                        continue
                    }
                    if case .object(let object) = expect, object["pairing"] != nil, kind != "pair" {
                        reader.report(JSONSchemaError(path.appending("pairing"), "only a pair step has a pairing expectation; this is a \(kind ?? "step") step"))
                        continue
                    }
                    if case .object(var object) = expect,
                       object["phone"] != nil || object["status"] != nil || object["pairing"] != nil || object["received"] != nil
                    {
                        if let received = object["received"] { box.received[index] = reader.received(received, at: path.appending("received")) }
                        if let phone = object["phone"] { box.phones[index] = reader.phone(phone, at: path.appending("phone")) }
                        if let status = object["status"] { box.statuses[index] = reader.status(status, at: path.appending("status")) }
                        if let pairing = object["pairing"] { box.pairings[index] = reader.pairing(pairing, object, at: path) }
                        let sideKeys: Set<String> = ["phone", "status", "pairing", "attemptsRemaining", "refused", "received"]
                        object = JSONObject(object.entries.filter { !sideKeys.contains($0.key) })
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
        var scenario = Scenario(
            file: file, script: script, expectations: expectations, linkExpectations: links, phoneExpectations: phones,
            devicesExpectation: box.devices, limits: box.limits, run: box.run)
        scenario.statusExpectations = (0..<script.steps.count).map { box.statuses[$0] ?? nil }
        scenario.pairingExpectations = (0..<script.steps.count).map { box.pairings[$0] ?? nil }
        scenario.receivedExpectations = (0..<script.steps.count).map { box.received[$0] ?? nil }
        scenario.expectedRefusal = box.refusal
        return scenario
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
    /// R4: how long pairing stays locked after 3 wrong codes (the computer's default is 5 minutes).
    public var lockoutSeconds: Int?
    /// R10: `denied` starts the computer without permission to use uinput; it must refuse to start.
    public var uinput: UinputAccess = .granted

    public enum UinputAccess: String, Sendable, Hashable, CaseIterable {
        case granted, denied
    }
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
    var statuses: [Int: StatusExpectation?] = [:]
    var pairings: [Int: PairingExpectation?] = [:]
    var received: [Int: [String: Int]?] = [:]
    var refusal: [String]?
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
    /// restartBluetoothd: from bluetoothd's start until the computer serves again (its application registered
    /// and its advertisement active), at most this long.
    public var servingWithinMs: Double?

    public init(outcome: Outcome, attemptsAtMost: Int? = nil, withinMs: Double? = nil, servingWithinMs: Double? = nil) {
        self.outcome = outcome
        self.attemptsAtMost = attemptsAtMost
        self.withinMs = withinMs
        self.servingWithinMs = servingWithinMs
    }
}

/// The status notifications (R5) the phone must receive during a step: at least `atLeast`, one every
/// `everyMs` (± `toleranceMs`, times the rig's latency scale) between consecutive ones, each with a battery level
/// 0–100 (and this one, when `batteryLevel` is given).
public struct StatusExpectation: Sendable, Hashable {
    public var atLeast: Int
    public var everyMs: Double?
    public var toleranceMs: Double
    public var batteryLevel: Int?

    public init(atLeast: Int, everyMs: Double? = nil, toleranceMs: Double = 250, batteryLevel: Int? = nil) {
        self.atLeast = atLeast
        self.everyMs = everyMs
        self.toleranceMs = toleranceMs
        self.batteryLevel = batteryLevel
    }
}

/// What a `pair` step must lead to (R4): the pairing state the phone reads afterwards, the attempts left, and
/// whether the computer refused the code.
public struct PairingExpectation: Sendable, Hashable {
    public var state: PairingStatus.State
    public var attemptsRemaining: Int?
    public var refused: Bool?

    public init(state: PairingStatus.State, attemptsRemaining: Int? = nil, refused: Bool? = nil) {
        self.state = state
        self.attemptsRemaining = attemptsRemaining
        self.refused = refused
    }
}
