package import GestureScript
package import StrictJSON
package import Verifier

/// A scenario: a gesture script whose steps say what must come out of the uinput device, and by when;
/// scenario-wide latency limits; and how the phone connects.
///
/// ```json
/// { "name": "…", "requirements": ["R3.3"], "settings": { "mode": "presentation" },
///   "run": { "writePath": "fd" }, "limits": { "p95Ms": 60, "maxMs": 150 },
///   "steps": [ { "button": "back", "expect": { "keys": ["KEY_LEFT 1", "KEY_LEFT 0"], "withinMs": 200 } } ] }
/// ```
package struct Scenario: Sendable {
    package var file: String
    package var script: GestureScript
    /// One per step: everything the step expects (frames, link, phone, status, received, pairing).
    package var expectations: [StepExpectations]
    /// R10: the computer must refuse to start, its output naming these texts (with `run.uinput: "denied"`).
    package var expectedRefusal: [String]?
    /// What the phone's list of remembered computers holds after connecting (R6).
    package var devicesExpectation: DevicesExpectation?
    package var limits: LatencyLimits
    package var run: RunSettings
    /// Checks every run makes that this scenario switches off, each with its reason (`"checksOff"`).
    package var checksOff: [RunCheck: String] = [:]

    package var name: String { script.name }

    /// Where each value of the file was written (for problems found after loading); nil for a scenario parsed
    /// from a value.
    package var positions: JSONPositions?

    /// How many checks the scenario makes: step expectations of every kind, the device list, a refusal.
    package var checkCount: Int {
        expectations.map(\.count).reduce(0, +) + (devicesExpectation == nil ? 0 : 1) + (expectedRefusal == nil ? 0 : 1)
    }

    /// `hil validate` refuses a scenario that checks nothing: whatever the computer did, a run of it would pass. (A
    /// gesture script without expectations still loads: `hil replay` shows its commands and frames.)
    package var checksNothingProblem: ScriptError.Problem? {
        guard checkCount == 0 else { return nil }
        return ScriptError.Problem(
            "(document): checks nothing: no step has an expect, and there is no expectDevices or expectRefusal, so any run of it would pass; add an expect to a step (docs/scenarios.md, \"expect\")",
            at: positions?.location(of: .root))
    }

    /// Reads and checks a scenario file, reporting every problem with the file, its line and column, and its JSON path.
    package static func load(contentsOf path: String) throws(ScriptError) -> Scenario {
        let (value, positions) = try GestureScript.readLocatedJSON(contentsOf: path)
        return try parse(value, file: path, positions: positions)
    }

    /// Keys read inside `run` and `limits`, by where they go: one written at the top is told where it belongs.
    static let nestedKeys: [String: String] = {
        var keys: [String: String] = [:]
        for key in ScenarioReader.runKeys { keys[key] = "run." + key }
        for key in ["p95Ms", "maxMs"] { keys[key] = "limits." + key }
        return keys
    }()

    /// The kind of `steps[index]` in the raw document: its one key besides `expect`.
    private static func stepKind(_ document: JSONValue, _ index: Int) -> String? {
        guard case .object(let top) = document, case .array(let steps)? = top["steps"], steps.indices.contains(index),
              case .object(let step) = steps[index] else { return nil }
        let kind = step.keys.first { $0 != "expect" }
        if kind == "radio", case .object(let radio)? = step["radio"], radio["blackoutMs"] != nil { return ScriptStep.radioBlackoutKind }
        return kind
    }

    package static func parse(_ value: JSONValue, file: String, positions: JSONPositions? = nil) throws(ScriptError) -> Scenario {
        let box = ReadBox()
        var reading = GestureScript.Extension(
            topKeys: ["limits", "run", "expectDevices", "expectRefusal", "checksOff"], stepKeys: ["expect"],
            read: { top, steps in
                var reader = ScenarioReader()
                box.limits = top["limits"].map { reader.limits($0, at: .root.appending("limits")) } ?? LatencyLimits()
                box.run = top["run"].map { reader.run($0, at: .root.appending("run")) } ?? RunSettings()
                box.devices = top["expectDevices"].flatMap { reader.devices($0, at: .root.appending("expectDevices")) }
                box.refusal = top["expectRefusal"].flatMap { reader.refusal($0, at: .root.appending("expectRefusal")) }
                box.checksOff = top["checksOff"].map { reader.checksOff($0, at: .root.appending("checksOff")) } ?? [:]
                if (box.refusal != nil) != (box.run.uinput == .denied) {
                    reader.report(JSONSchemaError(
                        box.refusal != nil ? .root.appending("expectRefusal") : .root.appending("run").appending("uinput"),
                        "expectRefusal and run.uinput \"denied\" go together: a computer denied uinput must refuse to start (R10), and only then"))
                }
                for problem in Self.sendStepProblems(value, run: box.run) { reader.report(problem) }
                if box.refusal != nil, let index = steps.keys.sorted().first(where: { steps[$0]?["expect"] != nil }) {
                    reader.report(JSONSchemaError(
                        .root.appending("steps").appending(index).appending("expect"),
                        "a scenario whose computer must refuse to start runs no steps, so they expect nothing"))
                }
                for (index, extras) in steps.sorted(by: { $0.key < $1.key }) {
                    guard let expect = extras["expect"] else { continue }
                    let path = JSONPath.root.appending("steps").appending(index).appending("expect")
                    box.expectations[index] = reader.stepExpectations(expect, step: Self.stepKind(value, index), at: path)
                }
                return reader.problems
            })
        reading.nestedKeys = Self.nestedKeys
        let script = try GestureScript.parse(value, file: file, extension: reading, positions: positions)
        let expectations = (0..<script.steps.count).map { box.expectations[$0] ?? StepExpectations() }
        return Scenario(
            file: file, script: script, expectations: expectations, expectedRefusal: box.refusal,
            devicesExpectation: box.devices, limits: box.limits, run: box.run, checksOff: box.checksOff, positions: positions)
    }
}


/// How the virtual central talks to the peripheral.
package struct RunSettings: Sendable, Hashable {
    package enum Pairing: String, Sendable, Hashable, CaseIterable {
        /// Pair with the code the peripheral shows before the steps.
        case pair
        /// Stay unpaired (scenarios about refusals).
        case none
    }

    package var writePath: WritePath = .dbus
    package var pairing: Pairing = .pair
    /// R4: how long pairing stays locked after 3 wrong codes (`defaultLockoutSeconds` when nil).
    package var lockoutSeconds: Int?
    /// The computer's lockout when a scenario does not set one: 5 minutes (R4).
    package static let defaultLockoutSeconds = 300
    /// R10: `denied` starts the computer without permission to use uinput; it must refuse to start.
    package var uinput: UinputAccess = .granted

    package enum UinputAccess: String, Sendable, Hashable, CaseIterable {
        case granted, denied
    }
    /// On the D-Bus path: send commands as write requests (each confirmed) instead of write commands.
    package var confirmedWrites = false
    /// Each command is handed to the link up to this many ms after its time on the gesture model's grid (uniform,
    /// from a fixed seed, order kept): a phone whose sends jitter, as a busy app's do. 0: on the grid.
    package var sendJitterMs = 0.0
    /// The most `sendJitterMs` (and `hil run --send-jitter`) takes: beyond a few send intervals it is no jitter.
    package static let maxSendJitterMs = 100.0
    /// R12: the phone tries to reconnect this often after a dropped link (5 s; shorter for tests)…
    package var reconnectInterval: Duration = .seconds(5)
    /// …at most this many times, then shows "disconnected".
    package var maxReconnectAttempts = 10
    /// Computers the phone already remembers before it connects (R6), oldest first: `02:00:00:00:00:01`…
    package var knownDevices = 0
    /// The transport the scenario runs on when `hil run --transport` does not choose (`ble` when nil).
    package var transport: Transport?
    /// The transports the scenario makes sense on (nil: every one); on another it is reported not applicable.
    package var transports: [Transport]?
    /// The network app's backoff (seeds/ipad-trackpad-design.md): first wait, doubled at each try…
    package var backoffUnit: Duration = .seconds(1)
    /// …at most this many tries.
    package var maxBackoffAttempts = 5
    /// The phone this scenario runs on (`run.phone`): a stack it needs, a Bumble phone's profile and fields; empty:
    /// the run's (`hil run --phone`).
    package var phone = PhoneChoice()
    package init() {}

    /// Whether the scenario applies to `transport`.
    package func applies(to transport: Transport) -> Bool {
        transports?.contains(transport) ?? true
    }
}

/// How the phone reaches the computer (docs/protocol.md): RemoteTouch's GATT service (`ble`, JSON commands), the
/// connectivity layer's 6-byte HID reports over the same service (`hid`), the iPad design's TCP with Bonjour
/// (`tcp`), and the connectivity layer's 5-byte UDP movement with a TCP control connection (`udp`).
package enum Transport: String, Sendable, Hashable, CaseIterable, Comparable {
    case ble
    case hid
    case tcp
    case udp

    /// Over the network between the rig's hosts (not the radio).
    package var isNetwork: Bool { self == .tcp || self == .udp }

    package static func < (lhs: Transport, rhs: Transport) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

/// Carries what the extension reads out of the parse (the closure cannot return it).
private final class ReadBox: @unchecked Sendable {
    // Safety: written and read on one thread, within `Scenario.parse`.
    var limits = LatencyLimits()
    var run = RunSettings()
    var expectations: [Int: StepExpectations] = [:]
    var refusal: [String]?
    var devices: DevicesExpectation?
    var checksOff: [RunCheck: String] = [:]
}




