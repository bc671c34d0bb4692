import InputCodes
package import StrictJSON
package import Verifier

extension StepExpectation {
    /// The expectation as a scenario's `expect` writes it (docs/scenarios.md), read back by `Scenario.parse` to the
    /// same value: `keys`, `allowRepeat`, `frames`, `motion`, `absent`, `forMs`, `nothingElse`, `withinMs`.
    package var json: JSONValue {
        var object = JSONObject()
        if let keys { object.set("keys", .array(keys.map { .string($0.description) })) }
        if allowRepeat { object.set("allowRepeat", true) }
        if let frames {
            object.set("frames", .array(frames.map { frame in .array(frame.events.map { .string($0.description) }) }))
        }
        if !motion.isEmpty {
            var axes = JSONObject()
            for (axis, check) in motion.sorted(by: { $0.key.code < $1.key.code }) { axes.set(axis.description, check.json) }
            object.set("motion", .object(axes))
        }
        if !absentTypes.isEmpty {
            let both = Set(absentTypes) == [.key, .rel]
            object.set("absent", both ? true : .array(absentTypes.map { .string($0.description) }))
        }
        if let absentForMs { object.set("forMs", .number(absentForMs)) }
        if nothingElse { object.set("nothingElse", true) }
        if absentForMs == nil || withinMs != absentForMs { object.set("withinMs", .number(withinMs)) }
        return .object(object)
    }
}

extension MotionCheck {
    /// `120`, `{"total": 120, "tolerance": 2}`, `{"total": 720, "tolerancePercent": 5}` or `"positive"`.
    package var json: JSONValue {
        switch self {
        case .total(let total, let tolerance) where tolerance == 0: .number(Double(total))
        case .total(let total, let tolerance): ["total": .number(Double(total)), "tolerance": .number(Double(tolerance))]
        case .totalPercent(let total, let percent): ["total": .number(Double(total)), "tolerancePercent": .number(percent)]
        case .direction(let direction): .string(direction.rawValue)
        }
    }
}
