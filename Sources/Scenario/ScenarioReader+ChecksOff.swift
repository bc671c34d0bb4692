import Foundation
import StrictJSON
import Verifier

extension ScenarioReader {
    /// `"checksOff": [{"check": "computerStage", "reason": "…"}]`: a check every run makes (`RunCheck`) switched off
    /// for this scenario, each with the reason a reader of its results needs. A check off without a reason, an
    /// unknown check or one listed twice is refused.
    mutating func checksOff(_ value: JSONValue, at path: JSONPath) -> [RunCheck: String] {
        var off: [RunCheck: String] = [:]
        guard let list = attempt({ () throws(JSONSchemaError) in try value.array(at: path) }) else { return off }
        if list.isEmpty { report(JSONSchemaError(path, "an empty list switches nothing off: leave checksOff out")) }
        for (index, element) in list.enumerated() {
            let at = path.appending(index)
            guard let object = attempt({ () throws(JSONSchemaError) in try element.object(at: at) }) else { continue }
            rejectUnknownKeys(of: object, allowed: ["check", "reason"], at: at)
            guard let check = attempt({ () throws(JSONSchemaError) in
                try object.required("check", at: at).enumeration(RunCheck.self, at: at.appending("check"))
            }) else { continue }
            guard let reason = object["reason"] else {
                report(JSONSchemaError(at, "\(check.rawValue) is switched off without a reason: say why in \"reason\", so a reader of the results knows what this scenario does not check"))
                continue
            }
            guard let text = attempt({ () throws(JSONSchemaError) in try reason.string(at: at.appending("reason")) }) else { continue }
            if text.trimmingCharacters(in: .whitespacesAndNewlines).count < 10 {
                report(JSONSchemaError(at.appending("reason"), "\(text.debugDescription) is no reason: say in a sentence why \(check.rawValue) cannot hold for this scenario"))
            }
            if off[check] != nil { report(JSONSchemaError(at.appending("check"), "\(check.rawValue) is switched off twice")) }
            off[check] = text
        }
        return off
    }
}
