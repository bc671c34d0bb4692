import Foundation

/// A scenario's mutated twin: the same steps with one expectation made wrong, which a verifier worth trusting
/// must fail. The mutation is made on the JSON text, so the same twin can be checked offline and run on a rig.
package struct ScenarioMutant: Sendable {
    /// The twin's JSON.
    package var text: String
    /// What was changed, for messages: `steps[0].expect.keys[0]: KEY_LEFT 1 → KEY_A 1`.
    package var change: String
    /// The change is to the evdev events a step expects (a key, a motion axis, "nothing arrives"): the verifier
    /// judges it from the events alone, so the offline replay (ScenarioTests) can reject the twin, and a shipped
    /// scenario that passed on a rig implies its twin fails there (the twin asks for events its original excludes).
    /// The other changes (pairing state, counts, the phone's state, a refusal) are judged only on a rig.
    package var judgedByEvents: Bool

    /// The twin of the scenario in `text`: the first step expectation that can be turned wrong is, in this order
    /// of preference within the step: its first key event (another key), its first motion axis (a total beyond
    /// the tolerance, the other direction), "nothing arrives" (a click must arrive), the pairing state, a received
    /// count, the status notifications' count, the phone's state; with no step to mutate, the expected
    /// refusal's text. Nil when the scenario expects nothing.
    package init?(_ text: String) {
        guard let data = text.data(using: .utf8),
              var top = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any],
              var steps = top["steps"] as? [[String: Any]]
        else { return nil }
        var change: String?
        var judgedByEvents = false
        for index in steps.indices {
            guard var expect = steps[index]["expect"] as? [String: Any] else { continue }
            let at = "steps[\(index)].expect"
            if var keys = expect["keys"] as? [String], let first = keys.first {
                let parts = first.split(separator: " ")
                let other = parts.first == "KEY_A" ? "KEY_ENTER" : "KEY_A"
                keys[0] = "\(other) \(parts.last ?? "1")"
                expect["keys"] = keys
                change = "\(at).keys[0]: \(first) → \(keys[0])"
                judgedByEvents = true
            } else if var motion = expect["motion"] as? [String: Any], let axis = motion.keys.sorted().first {
                let old = motion[axis]!
                if let number = old as? Double {
                    motion[axis] = number + 50
                } else if let direction = old as? String {
                    motion[axis] = direction == "positive" ? "negative" : "positive"
                } else if var check = old as? [String: Any], let total = check["total"] as? Double {
                    if let tolerance = check["tolerance"] as? Double {
                        check["total"] = total + tolerance + 50
                    } else {
                        check["total"] = total * 2 + 100
                    }
                    motion[axis] = check
                }
                expect["motion"] = motion
                change = "\(at).motion.\(axis): \(Self.describe(old)) → \(Self.describe(motion[axis]!))"
                judgedByEvents = true
            } else if expect["absent"] != nil {
                let within = (expect["forMs"] as? Double).map { max($0, 300) } ?? 600
                expect = ["keys": ["BTN_LEFT 1", "BTN_LEFT 0"], "withinMs": within]
                change = "\(at): nothing arrives → a click arrives"
                judgedByEvents = true
            } else if let state = expect["pairing"] as? String {
                expect["pairing"] = state == "paired" ? "lockedOut" : "paired"
                expect.removeValue(forKey: "attemptsRemaining")
                change = "\(at).pairing: \(state) → \(expect["pairing"]!)"
            } else if var received = expect["received"] as? [String: Any], let kind = received.keys.sorted().first,
                      let count = received[kind] as? Double
            {
                received[kind] = Int(count) + 1
                expect["received"] = received
                change = "\(at).received.\(kind): \(Int(count)) → \(Int(count) + 1)"
            } else if var status = expect["status"] as? [String: Any], let atLeast = status["atLeast"] as? Double {
                status["atLeast"] = Int(atLeast) + 50
                expect["status"] = status
                change = "\(at).status.atLeast: \(Int(atLeast)) → \(Int(atLeast) + 50)"
            } else if let phone = expect["phone"] as? String {
                expect["phone"] = phone == "idle" ? "active" : "idle"
                change = "\(at).phone: \(phone) → \(expect["phone"]!)"
            } else {
                continue
            }
            steps[index]["expect"] = expect
            break
        }
        if change == nil, let texts = top["expectRefusal"] as? [String] {
            top["expectRefusal"] = texts + ["a text no computer prints: mutant"]
            change = "expectRefusal: + \"a text no computer prints: mutant\""
        }
        guard let change else { return nil }
        top["steps"] = steps
        top["name"] = "mutant: " + ((top["name"] as? String) ?? "")
        guard let mutated = try? JSONSerialization.data(withJSONObject: top, options: [.prettyPrinted, .sortedKeys]) else { return nil }
        self.text = String(decoding: mutated, as: UTF8.self)
        self.change = change
        self.judgedByEvents = judgedByEvents
    }

    private static func describe(_ value: Any) -> String {
        if let number = value as? Double { return number == number.rounded() ? String(Int(number)) : String(number) }
        if let text = value as? String { return text }
        if let object = value as? [String: Any] {
            return "{" + object.keys.sorted().map { "\($0): \(describe(object[$0]!))" }.joined(separator: ", ") + "}"
        }
        return "\(value)"
    }
}
