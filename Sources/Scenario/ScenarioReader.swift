import GestureModel
import GestureScript
import InputCodes
import RemoteTouchProtocol
import StrictJSON
import Verifier

/// Reads the parts of a scenario beyond the gesture script, collecting every problem with its path.
struct ScenarioReader {
    private var collected = JSONProblems()
    var problems: [JSONSchemaError] { collected.list }

    mutating func report(_ problem: JSONSchemaError) {
        collected.append(problem)
    }

    mutating func rejectUnknownKeys(of object: JSONObject, allowed: [String], at path: JSONPath) {
        collected.rejectUnknownKeys(of: object, allowed: allowed, at: path)
    }

    /// Runs a read; records its problem and returns nil when it failed.
    @discardableResult
    mutating func attempt<T>(_ read: () throws(JSONSchemaError) -> T) -> T? {
        collected.attempt(read)
    }

    mutating func limits(_ value: JSONValue, at path: JSONPath) -> LatencyLimits {
        var limits = LatencyLimits()
        guard let object = collected.attempt({ () throws(JSONSchemaError) in try value.object(at: path) }) else { return limits }
        collected.rejectUnknownKeys(of: object, allowed: ["p95Ms", "maxMs"], at: path)
        limits.p95Ms = object["p95Ms"].flatMap { v in collected.attempt { () throws(JSONSchemaError) in try Self.positive(v, at: path.appending("p95Ms")) } }
        limits.maxMs = object["maxMs"].flatMap { v in collected.attempt { () throws(JSONSchemaError) in try Self.positive(v, at: path.appending("maxMs")) } }
        if let p95 = limits.p95Ms, let max = limits.maxMs, p95 > max {
            collected.append(JSONSchemaError(path.appending("p95Ms"), "\(p95) is above maxMs \(max)"))
        }
        return limits
    }

    /// The keys `run` takes.
    static let runKeys = [
        "writePath", "pairing", "confirmedWrites", "reconnectIntervalMs", "maxReconnectAttempts", "knownDevices",
        "lockoutSeconds", "uinput", "transport", "transports", "backoffUnitMs", "maxBackoffAttempts", "sendJitterMs", "phone",
    ]

    mutating func run(_ value: JSONValue, at path: JSONPath) -> RunSettings {
        var run = RunSettings()
        guard let object = collected.attempt({ () throws(JSONSchemaError) in try value.object(at: path) }) else { return run }
        collected.rejectUnknownKeys(of: object, allowed: Self.runKeys, at: path)
        readTransports(object, into: &run, at: path)
        if let v = object["phone"] { run.phone = PhoneChoice.read(v, at: path.appending("phone"), into: &collected) ?? PhoneChoice() }
        if let v = object["lockoutSeconds"] {
            run.lockoutSeconds = collected.attempt { () throws(JSONSchemaError) in try v.integer(at: path.appending("lockoutSeconds"), in: 1...3600) }
        }
        if let v = object["uinput"], let access = collected.attempt({ () throws(JSONSchemaError) in
            try v.enumeration(RunSettings.UinputAccess.self, at: path.appending("uinput"))
        }) { run.uinput = access }
        if let v = object["confirmedWrites"], let flag = collected.attempt({ () throws(JSONSchemaError) in
            try v.bool(at: path.appending("confirmedWrites"))
        }) { run.confirmedWrites = flag }
        if let v = object["sendJitterMs"], let ms = collected.attempt({ () throws(JSONSchemaError) in
            let ms = try v.number(at: path.appending("sendJitterMs"))
            guard (0...RunSettings.maxSendJitterMs).contains(ms) else {
                throw JSONSchemaError(.outOfRange, path.appending("sendJitterMs"), "\(JSONWriter.numberText(ms)) ms is outside 0...\(JSONWriter.numberText(RunSettings.maxSendJitterMs))")
            }
            return ms
        }) { run.sendJitterMs = ms }
        if let v = object["knownDevices"], let count = collected.attempt({ () throws(JSONSchemaError) in
            try v.integer(at: path.appending("knownDevices"), in: 0...20)
        }) { run.knownDevices = count }
        if let v = object["reconnectIntervalMs"], let ms = collected.attempt({ () throws(JSONSchemaError) in
            try Self.positive(v, at: path.appending("reconnectIntervalMs"))
        }) { run.reconnectInterval = .microseconds(Int64(ms * 1000)) }
        if let v = object["maxReconnectAttempts"], let count = collected.attempt({ () throws(JSONSchemaError) in
            try v.integer(at: path.appending("maxReconnectAttempts"), in: 1...100)
        }) { run.maxReconnectAttempts = count }
        if let v = object["writePath"], let path = collected.attempt({ () throws(JSONSchemaError) in
            try v.enumeration(WritePath.self, at: path.appending("writePath"))
        }) { run.writePath = path }
        if let v = object["pairing"], let pairing = collected.attempt({ () throws(JSONSchemaError) in
            try v.enumeration(RunSettings.Pairing.self, at: path.appending("pairing"))
        }) { run.pairing = pairing }
        return run
    }

    /// `"transport": "tcp"`, `"transports": ["ble"]`, `"backoffUnitMs": 100`, `"maxBackoffAttempts": 5`.
    private mutating func readTransports(_ object: JSONObject, into run: inout RunSettings, at path: JSONPath) {
        if let v = object["transport"], let transport = collected.attempt({ () throws(JSONSchemaError) in
            try v.enumeration(Transport.self, at: path.appending("transport"))
        }) { run.transport = transport }
        if let v = object["transports"], let list = collected.attempt({ () throws(JSONSchemaError) in
            try v.array(at: path.appending("transports"))
        }) {
            var transports: [Transport] = []
            for (index, element) in list.enumerated() {
                let at = path.appending("transports").appending(index)
                guard let transport = collected.attempt({ () throws(JSONSchemaError) in try element.enumeration(Transport.self, at: at) }) else { continue }
                if transports.contains(transport) {
                    collected.append(JSONSchemaError(at, "\(transport.rawValue) is listed twice"))
                } else {
                    transports.append(transport)
                }
            }
            if list.isEmpty { collected.append(JSONSchemaError(path.appending("transports"), "list at least one transport the scenario applies to")) }
            run.transports = transports
        }
        if let transport = run.transport, let transports = run.transports, !transports.contains(transport) {
            collected.append(JSONSchemaError(path.appending("transport"), "\(transport.rawValue) is not among the scenario's transports \(transports.map(\.rawValue))"))
        }
        if let v = object["backoffUnitMs"], let ms = collected.attempt({ () throws(JSONSchemaError) in
            try Self.positive(v, at: path.appending("backoffUnitMs"))
        }) { run.backoffUnit = .microseconds(Int64(ms * 1000)) }
        if let v = object["maxBackoffAttempts"], let count = collected.attempt({ () throws(JSONSchemaError) in
            try v.integer(at: path.appending("maxBackoffAttempts"), in: 1...20)
        }) { run.maxBackoffAttempts = count }
    }

    /// `{"atLeast": 2, "everyMs": 2000, "toleranceMs": 250, "batteryLevel": 100}`
    mutating func status(_ value: JSONValue, at path: JSONPath) -> StatusExpectation? {
        guard let object = collected.attempt({ () throws(JSONSchemaError) in try value.object(at: path) }) else { return nil }
        collected.rejectUnknownKeys(of: object, allowed: ["atLeast", "everyMs", "toleranceMs", "batteryLevel", "errors"], at: path)
        guard let atLeast = collected.attempt({ () throws(JSONSchemaError) in
            try object.required("atLeast", at: path).integer(at: path.appending("atLeast"), in: 0...10_000)
        }) else { return nil }
        var expectation = StatusExpectation(atLeast: atLeast)
        if let v = object["everyMs"] { expectation.everyMs = collected.attempt { () throws(JSONSchemaError) in try Self.positive(v, at: path.appending("everyMs")) } }
        if let v = object["toleranceMs"], let ms = collected.attempt({ () throws(JSONSchemaError) in try Self.positive(v, at: path.appending("toleranceMs")) }) {
            expectation.toleranceMs = ms
        }
        if let v = object["batteryLevel"] {
            expectation.batteryLevel = collected.attempt { () throws(JSONSchemaError) in try v.integer(at: path.appending("batteryLevel"), in: 0...100) }
        }
        if let v = object["errors"], let list = collected.attempt({ () throws(JSONSchemaError) in try v.array(at: path.appending("errors")) }) {
            for (index, element) in list.enumerated() {
                if let code = collected.attempt({ () throws(JSONSchemaError) in
                    try element.enumeration(StatusError.Code.self, at: path.appending("errors").appending(index))
                }) { expectation.errors.append(code.rawValue) }
            }
            if list.isEmpty { collected.append(JSONSchemaError(path.appending("errors"), "an empty list checks nothing: name the error codes that must arrive")) }
        }
        return expectation
    }

    /// `{"pairing": "awaitingCode", "attemptsRemaining": 2, "refused": true}`
    mutating func pairing(_ value: JSONValue, _ object: JSONObject, at path: JSONPath) -> PairingExpectation? {
        guard let state = collected.attempt({ () throws(JSONSchemaError) in
            try value.enumeration(PairingStatus.State.self, at: path.appending("pairing"))
        }) else { return nil }
        var expectation = PairingExpectation(state: state)
        if let v = object["attemptsRemaining"] {
            expectation.attemptsRemaining = collected.attempt { () throws(JSONSchemaError) in try v.integer(at: path.appending("attemptsRemaining"), in: 0...3) }
        }
        if let v = object["refused"] {
            expectation.refused = collected.attempt { () throws(JSONSchemaError) in try v.bool(at: path.appending("refused")) }
        }
        if let v = object["secondsRemainingAtMost"] {
            expectation.secondsRemainingAtMost = collected.attempt { () throws(JSONSchemaError) in
                try v.integer(at: path.appending("secondsRemainingAtMost"), in: 0...3600)
            }
        }
        return expectation
    }

    /// `{"modeChange": 1, "cursorMove": 0, "refused": 1000}`: how many commands of each kind the computer receives
    /// during the step; `refused` counts every write it refused (malformed or not allowed); `hidReport` and
    /// `udpPacket` count the pointer reports of the hid and udp transports, taken or refused.
    mutating func received(_ value: JSONValue, at path: JSONPath) -> [String: Int]? {
        guard let object = collected.attempt({ () throws(JSONSchemaError) in try value.object(at: path) }) else { return nil }
        var counts: [String: Int] = [:]
        let names = Command.caseNames + ["hidReport", "udpPacket", "refused"]
        for (name, count) in object.entries {
            guard names.contains(name) else {
                collected.append(JSONSchemaError(.unknownKey, path.appending(name), "unknown command\(Suggestion.phrase(for: name, among: names)); expected one of \(Command.caseNames.joined(separator: ", ")), hidReport, udpPacket, or refused (any write the computer refused)"))
                continue
            }
            counts[name] = collected.attempt { () throws(JSONSchemaError) in try count.integer(at: path.appending(name), in: 0...100_000) }
        }
        if object.isEmpty {
            collected.append(JSONSchemaError(path, "an empty received expects nothing: name a command and its count, e.g. {\"refused\": 0}"))
        }
        return counts.isEmpty ? nil : counts
    }

    /// `["R10", "permission"]`: texts the computer's refusal must contain.
    mutating func refusal(_ value: JSONValue, at path: JSONPath) -> [String]? {
        guard let list = collected.attempt({ () throws(JSONSchemaError) in try value.array(at: path) }) else { return nil }
        if list.isEmpty { collected.append(JSONSchemaError(path, "an empty expectRefusal names nothing: list the texts the refusal must contain, e.g. [\"R10\"]")) }
        return list.enumerated().compactMap { index, element in
            collected.attempt { () throws(JSONSchemaError) in try element.string(at: path.appending(index)) }
        }
    }

    /// `"idle"` or `"active"`
    mutating func phone(_ value: JSONValue, at path: JSONPath) -> Activity? {
        collected.attempt { () throws(JSONSchemaError) in try value.enumeration(Activity.self, at: path) }
    }

    /// `{"count": 5, "evicted": ["02:00:00:00:00:01"]}`
    mutating func devices(_ value: JSONValue, at path: JSONPath) -> DevicesExpectation? {
        guard let object = collected.attempt({ () throws(JSONSchemaError) in try value.object(at: path) }) else { return nil }
        collected.rejectUnknownKeys(of: object, allowed: ["count", "evicted"], at: path)
        if object.isEmpty { collected.append(JSONSchemaError(path, "an empty expectDevices expects nothing: give count or evicted")) }
        var expectation = DevicesExpectation()
        if let v = object["count"] {
            expectation.count = collected.attempt { () throws(JSONSchemaError) in try v.integer(at: path.appending("count"), in: 0...5) }
        }
        if let v = object["evicted"], let list = collected.attempt({ () throws(JSONSchemaError) in try v.array(at: path.appending("evicted")) }) {
            for (index, element) in list.enumerated() {
                if let address = collected.attempt({ () throws(JSONSchemaError) in try element.string(at: path.appending("evicted").appending(index)) }) {
                    expectation.evicted.append(address)
                }
            }
        }
        return expectation
    }

    /// `{"link": "reconnected", "attemptsAtMost": 2, "withinMs": 8000}`
    /// On a `disconnect` step only `{"link": "disconnected", "withinMs": 2000}`; a `reconnect` step is one try,
    /// so it takes no `attemptsAtMost`; a `restartBluetoothd` step also takes `servingWithinMs`.
    mutating func link(_ value: JSONValue, _ object: JSONObject, at path: JSONPath, step: String) -> LinkExpectation? {
        let allowed = ExpectKeys.link(step: step)
        collected.rejectUnknownKeys(of: object, allowed: allowed, at: path)
        guard let outcome = collected.attempt({ () throws(JSONSchemaError) in
            try value.enumeration(LinkExpectation.Outcome.self, at: path.appending("link"))
        }) else { return nil }
        if step == "disconnect" && outcome != .disconnected {
            collected.append(JSONSchemaError(
                path.appending("link"), "after the user disconnects the phone shows \"disconnected\" and does not reconnect by itself; expected \"disconnected\""))
            return nil
        }
        var expectation = LinkExpectation(outcome: outcome)
        if let v = object["attemptsAtMost"] {
            expectation.attemptsAtMost = collected.attempt { () throws(JSONSchemaError) in try v.integer(at: path.appending("attemptsAtMost"), in: 1...100) }
        }
        if let v = object["withinMs"] {
            expectation.withinMs = collected.attempt { () throws(JSONSchemaError) in try Self.positive(v, at: path.appending("withinMs")) }
        }
        if let v = object["servingWithinMs"] {
            expectation.servingWithinMs = collected.attempt { () throws(JSONSchemaError) in try Self.positive(v, at: path.appending("servingWithinMs")) }
        }
        return expectation
    }

    /// `["KEY_LEFT 1", "KEY_LEFT 0"]`: key and button events in order.
    mutating func keys(_ v: JSONValue, at keysPath: JSONPath) -> [InputEvent]? {
        guard let list = collected.attempt({ () throws(JSONSchemaError) in try v.array(at: keysPath) }) else { return nil }
        var events: [InputEvent] = []
        for (index, element) in list.enumerated() {
            if let event = collected.attempt({ () throws(JSONSchemaError) in try Self.event(element, at: keysPath.appending(index)) }) {
                if event.code.type != .key {
                    collected.append(JSONSchemaError(keysPath.appending(index), "\(event.code) is not a key or button; use motion or frames"))
                }
                events.append(event)
            }
        }
        if list.isEmpty { collected.append(JSONSchemaError(keysPath, "an empty key list expects nothing; use absent")) }
        return events
    }

    /// `[["BTN_LEFT 1"], ["BTN_LEFT 0"]]`: frames in order, each a set of events.
    mutating func frames(_ v: JSONValue, at framesPath: JSONPath) -> [InputFrame]? {
        guard let list = collected.attempt({ () throws(JSONSchemaError) in try v.array(at: framesPath) }) else { return nil }
        var frames: [InputFrame] = []
        for (index, element) in list.enumerated() {
            let framePath = framesPath.appending(index)
            guard let events = collected.attempt({ () throws(JSONSchemaError) in try element.array(at: framePath) }) else { continue }
            var frame: [InputEvent] = []
            for (eventIndex, event) in events.enumerated() {
                if let parsed = collected.attempt({ () throws(JSONSchemaError) in try Self.event(event, at: framePath.appending(eventIndex)) }) {
                    frame.append(parsed)
                }
            }
            if events.isEmpty { collected.append(JSONSchemaError(framePath, "a frame needs at least one event")) }
            frames.append(InputFrame(frame))
        }
        if list.isEmpty { collected.append(JSONSchemaError(framesPath, "an empty frame list expects nothing; use absent")) }
        return frames
    }

    /// `{"REL_X": {"total": 60, "tolerance": 3}}`: how each relative axis adds up.
    mutating func motion(_ v: JSONValue, at motionPath: JSONPath) -> [EventCode: MotionCheck] {
        var motion: [EventCode: MotionCheck] = [:]
        guard let axes = collected.attempt({ () throws(JSONSchemaError) in try v.object(at: motionPath) }) else { return motion }
        if axes.isEmpty {
            collected.append(JSONSchemaError(motionPath, "an empty motion expects nothing: name an axis (\"REL_X\": 0 expects no motion on it), or use absent"))
        }
        for entry in axes.entries {
            let axisPath = motionPath.appending(entry.key)
            guard let code = EventCode(name: entry.key), code.type == .rel else {
                let axes = EventCode.allKnown.filter { $0.type == .rel }.compactMap(\.name)
                collected.append(JSONSchemaError(.unknownKey, axisPath, "not a relative axis\(Suggestion.phrase(for: entry.key, among: axes)); expected \(axes.joined(separator: ", "))"))
                continue
            }
            if let check = collected.attempt({ () throws(JSONSchemaError) in try Self.motion(entry.value, at: axisPath) }) {
                motion[code] = check
            }
        }
        return motion
    }

    /// `true` (no key or motion events) or `["EV_REL"]`.
    mutating func absent(_ v: JSONValue, at absentPath: JSONPath) -> [EventType] {
        if case .bool(true) = v { return [.key, .rel] }
        guard let list = collected.attempt({ () throws(JSONSchemaError) in try v.array(at: absentPath) }) else { return [] }
        var types: [EventType] = []
        for (index, element) in list.enumerated() {
            guard let text = collected.attempt({ () throws(JSONSchemaError) in try element.string(at: absentPath.appending(index)) }) else { continue }
            guard let type = EventType.allCases.first(where: { $0.description == text }) else {
                let names = ["EV_KEY", "EV_REL", "EV_ABS", "EV_MSC"]
                collected.append(JSONSchemaError(.unknownValue, absentPath.appending(index), "unknown event type \"\(text)\"\(Suggestion.phrase(for: text, among: names)); expected \(names.joined(separator: ", "))"))
                continue
            }
            types.append(type)
        }
        if list.isEmpty { collected.append(JSONSchemaError(absentPath, "an empty absent expects nothing: name the event types, or true for keys and motion")) }
        return types
    }

    /// `"KEY_RIGHT 1"`: an event code's kernel name and a value.
    static func event(_ value: JSONValue, at path: JSONPath) throws(JSONSchemaError) -> InputEvent {
        let text = try value.string(at: path)
        let parts = text.split(separator: " ")
        guard parts.count == 2, let number = Int32(parts[1]) else {
            throw JSONSchemaError(path, "\"\(text)\": expected an event as \"NAME VALUE\", e.g. \"KEY_RIGHT 1\"")
        }
        guard let code = EventCode(name: String(parts[0])) else {
            let suggestion = Suggestion.closest(to: String(parts[0]), among: EventCode.allKnown.compactMap(\.name))
            throw JSONSchemaError(
                path, "unknown event code \(parts[0])\(suggestion.map { " (did you mean \($0)?)" } ?? ""); kernel names such as KEY_RIGHT, BTN_LEFT, REL_X (docs/scenarios.md)")
        }
        return InputEvent(code, number)
    }

    /// `120` (exact), `{"total": 120, "tolerance": 2}`, `{"total": 720, "tolerancePercent": 5}` or `"negative"`.
    static func motion(_ value: JSONValue, at path: JSONPath) throws(JSONSchemaError) -> MotionCheck {
        switch value {
        case .number:
            return .total(try value.integer(at: path, in: -1_000_000...1_000_000), tolerance: 0)
        case .string:
            return .direction(try value.enumeration(MotionCheck.Direction.self, at: path))
        default:
            let object = try value.object(at: path)
            try object.rejectUnknownKeys(allowed: ["total", "tolerance", "tolerancePercent"], at: path)
            let total = try object.required("total", at: path).integer(at: path.appending("total"), in: -1_000_000...1_000_000)
            if let tolerance = object["tolerance"] {
                guard object["tolerancePercent"] == nil else {
                    throw JSONSchemaError(path, "give tolerance or tolerancePercent, not both")
                }
                return .total(total, tolerance: try tolerance.integer(at: path.appending("tolerance"), in: 0...1_000_000))
            }
            if let percent = object["tolerancePercent"] {
                let value = try percent.number(at: path.appending("tolerancePercent"))
                guard value >= 0 && value <= 100 else {
                    throw JSONSchemaError(
                        .outOfRange, path.appending("tolerancePercent"), "\(value) is outside 0...100")
                }
                return .totalPercent(total, percent: value)
            }
            return .total(total, tolerance: 0)
        }
    }

    static func positive(_ value: JSONValue, at path: JSONPath) throws(JSONSchemaError) -> Double {
        let number = try value.number(at: path)
        guard number > 0 && number <= 600_000 else {
            throw JSONSchemaError(.outOfRange, path, "\(JSONWriter.numberText(number)) ms is outside (0...600000]")
        }
        return number
    }

}
