import GestureScript
import StrictJSON
import Verifier

/// The keys a step's `expect` takes, by the reader that takes them: the one list behind the readers below and the
/// hint for an unknown key, so the hint cannot name a key the readers refuse or leave one out.
package enum ExpectKeys {
    /// Frames out of the uinput device (`ScenarioReader.expectation`).
    package static let events = ["keys", "allowRepeat", "frames", "motion", "absent", "forMs", "nothingElse", "withinMs"]
    /// What the phone and the computer saw during the step.
    package static let side = ["phone", "status", "received"]
    /// A `pair` step's outcome (`ScenarioReader.pairing`).
    package static let pairing = ["pairing", "attemptsRemaining", "refused", "secondsRemainingAtMost"]

    /// A link step's outcome (`ScenarioReader.link`): which keys each kind of link step takes.
    package static func link(step: String) -> [String] {
        switch step {
        case "linkDrop", "partition", ScriptStep.radioBlackoutKind: ["link", "attemptsAtMost", "withinMs"]
        case "restartBluetoothd": ["link", "withinMs", "servingWithinMs"]
        default: ["link", "withinMs"]
        }
    }

    /// Every key any step's `expect` takes, in the order docs/scenarios.md lists them.
    package static let all: [String] = {
        var keys: [String] = []
        let linkKeys = ScriptStep.linkActionNames.flatMap { link(step: $0) }
        for key in events + side + pairing + linkKeys where !keys.contains(key) { keys.append(key) }
        return keys
    }()

    /// The keys that are an expectation by themselves; the others qualify one (`withinMs`, `attemptsRemaining`…).
    package static let expectations = ["keys", "frames", "motion", "absent", "phone", "status", "received", "pairing", "link"]
}

extension ScenarioReader {
    /// A step's `expect`: each kind of expectation read by its reader, every problem reported with its path. A key
    /// no reader takes is reported with the key it most likely meant; the known keys are read on.
    mutating func stepExpectations(_ value: JSONValue, step kind: String?, at path: JSONPath) -> StepExpectations {
        var result = StepExpectations()
        guard let written = attempt({ () throws(JSONSchemaError) in try value.object(at: path) }) else { return result }
        let unknown = written.keys.filter { !ExpectKeys.all.contains($0) }
        for key in unknown { report(JSONSchemaError(.unknownKey, path.appending(key), JSONObject.unknownKey(key, allowed: ExpectKeys.all))) }
        let object = JSONObject(written.entries.filter { ExpectKeys.all.contains($0.key) })
        guard object.keys.contains(where: ExpectKeys.expectations.contains) else {
            // With a misspelt key, that key was meant to be the expectation: its problem says enough.
            if unknown.isEmpty {
                report(JSONSchemaError(path, "expects nothing: give one of \(ExpectKeys.expectations.joined(separator: ", ")) (pairing on a pair step, link on a link step)"))
            }
            return result
        }
        let isLinkStep = kind.map(ScriptStep.linkActionNames.contains) ?? false
        if isLinkStep {
            guard let link = object["link"] else {
                report(JSONSchemaError(
                    path, "a \(kind ?? "link") step is judged by a link expectation, e.g. {\"link\": \"\(kind == "disconnect" ? "disconnected" : "reconnected")\"}"))
                return result
            }
            result.link = self.link(link, object, at: path, step: kind ?? "")
            return result
        }
        if object["link"] != nil {
            report(JSONSchemaError(
                path.appending("link"), "only a linkDrop, partition, radio blackout, disconnect, reconnect, restartBluetoothd or restartPeripheral step has a link expectation; this is a \(kind ?? "step") step"))
            return result
        }
        if let pairing = object["pairing"] {
            guard kind == "pair" else {
                report(JSONSchemaError(path.appending("pairing"), "only a pair step has a pairing expectation; this is a \(kind ?? "step") step"))
                return result
            }
            result.pairing = self.pairing(pairing, object, at: path)
        } else if let qualifier = ExpectKeys.pairing.first(where: { object[$0] != nil }) {
            report(JSONSchemaError(path.appending(qualifier), "\(qualifier) goes with a pairing expectation on a pair step"))
        }
        if let received = object["received"] { result.received = self.received(received, at: path.appending("received")) }
        if let phone = object["phone"] { result.phone = self.phone(phone, at: path.appending("phone")) }
        if let status = object["status"] { result.status = self.status(status, at: path.appending("status")) }
        let events = JSONObject(object.entries.filter { ExpectKeys.events.contains($0.key) })
        if !events.isEmpty { result.events = expectation(events, at: path) }
        return result
    }

    /// `{"keys": […], "withinMs": 200}`: what comes out of the uinput device, and by when.
    mutating func expectation(_ object: JSONObject, at path: JSONPath) -> StepExpectation? {
        for problem in object.unknownKeyProblems(allowed: ExpectKeys.events, at: path) { report(problem) }
        guard ["keys", "frames", "motion", "absent"].contains(where: { object[$0] != nil }) else {
            let qualifiers = object.keys.map { "\"\($0)\"" }.joined(separator: ", ")
            report(JSONSchemaError(path, "\(qualifiers) qualify an expectation of events: give keys, frames, motion or absent with them, or leave them out"))
            return nil
        }
        var expectation = StepExpectation(withinMs: StepExpectation.defaultWithinMs)
        if let v = object["withinMs"], let ms = attempt({ () throws(JSONSchemaError) in try Self.positive(v, at: path.appending("withinMs")) }) {
            expectation.withinMs = ms
        }
        if let v = object["keys"] { expectation.keys = keys(v, at: path.appending("keys")) }
        if let v = object["allowRepeat"], let flag = attempt({ () throws(JSONSchemaError) in try v.bool(at: path.appending("allowRepeat")) }) {
            expectation.allowRepeat = flag
        }
        if let v = object["nothingElse"], let flag = attempt({ () throws(JSONSchemaError) in try v.bool(at: path.appending("nothingElse")) }) {
            expectation.nothingElse = flag
        }
        if let v = object["frames"] { expectation.frames = frames(v, at: path.appending("frames")) }
        if let v = object["motion"] { expectation.motion = motion(v, at: path.appending("motion")) }
        if let v = object["absent"] { expectation.absentTypes = absent(v, at: path.appending("absent")) }
        if let v = object["forMs"], let ms = attempt({ () throws(JSONSchemaError) in try Self.positive(v, at: path.appending("forMs")) }) {
            guard !expectation.absentTypes.isEmpty else {
                report(JSONSchemaError(path.appending("forMs"), "forMs goes with absent"))
                return expectation
            }
            expectation.absentForMs = ms
            if object["withinMs"] == nil { expectation.withinMs = ms }
        }
        return expectation
    }
}
