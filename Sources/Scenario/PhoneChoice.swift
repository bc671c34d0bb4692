package import StrictJSON
package import System

/// Which phone drives ble and hid: the rig's BlueZ phone (on the computer's own bluetoothd) or the Bumble phone
/// (Rigs/bumble/phone.py, a host stack of its own: docs/bumble-phone.md) in one of its profiles, with single fields
/// changed. `hil run --phone bumble:ios-like` sets the run's; a scenario's `run.phone` its own (docs/scenarios.md).
/// This type owns the choice's words and checks every field; phone.py owns each profile's values.
package struct PhoneChoice: Sendable, Hashable, CustomStringConvertible {
    package enum Stack: String, Sendable, Hashable, CaseIterable {
        case bluez, bumble
    }

    /// nil in a scenario that leaves it to the run.
    package var stack: Stack?
    /// A named profile of the Bumble phone (`profiles`); nil: the run's, else `bluez-like`.
    package var profile: String?
    /// Fields changed over the profile, as phone.py's `profile` verb takes them (`mtu` → `23`), sorted by name.
    package var fields: [String: String] = [:]

    package init(stack: Stack? = nil, profile: String? = nil, fields: [String: String] = [:]) {
        self.stack = stack
        self.profile = profile
        self.fields = fields
    }

    /// The Bumble phone's profiles (docs/bumble-phone.md, "Profiles").
    package static let profiles = ["bluez-like", "minimal", "ios-like", "android-like"]
    /// The profile of a Bumble phone nothing chose one for.
    package static let defaultProfile = "bluez-like"

    /// Each field a profile has, with what it takes.
    package static let fieldRules: [String: FieldRule] = [
        "mtu": .integer(23...517), "eatt": .integer(0...5), "eattWhen": .word(["offered", "always"]),
        "eattTimeoutMs": .integer(100...60_000), "interval": .interval, "supervisionMs": .integer(100...32_000),
        "update": .update, "motion": .word(["with", "without"]), "buttons": .word(["with", "without"]),
        "long": .word(["write", "refuse"]), "queue": .integer(0...64), "bearers": .word(["spread", "fixed"]),
        "writeTimeoutMs": .integer(100...120_000),
    ]

    package enum FieldRule: Sendable {
        case integer(ClosedRange<Int>)
        case word([String])
        /// `15` or `"7.5-15"`: ms, 7.5 to 4000 in steps of 1.25.
        case interval
        /// `"none"` or `"15-30"`.
        case update
    }

    /// `bluez`, `bumble:ios-like`, `bumble:minimal mtu=23`.
    package var description: String {
        var text = stack?.rawValue ?? "the run's phone"
        if let profile { text += ":" + profile }
        for (key, value) in fields.sorted(by: { $0.key < $1.key }) { text += " \(key)=\(value)" }
        return text
    }

    /// `--phone`'s value: `bluez`, `bumble` or `bumble:PROFILE`.
    /// - Throws: a sentence naming what it takes.
    package init(parsing text: String) throws(PhoneChoiceError) {
        let parts = text.split(separator: ":", maxSplits: 1).map(String.init)
        guard let stack = parts.first.flatMap(Stack.init(rawValue:)) else {
            throw PhoneChoiceError(.invalid, "--phone \(text): the phone is bluez or bumble (bumble:PROFILE for a profile: \(Self.profiles.joined(separator: ", ")))")
        }
        self.init(stack: stack)
        if parts.count == 2 {
            guard stack == .bumble else { throw PhoneChoiceError(.invalid, "--phone \(text): profiles are the Bumble phone's (bumble:\(parts[1]))") }
            guard Self.profiles.contains(parts[1]) else {
                throw PhoneChoiceError(.invalid, "--phone \(text): no profile \(parts[1]); the Bumble phone's are \(Self.profiles.joined(separator: ", "))")
            }
            profile = parts[1]
        }
    }

    /// This scenario's phone on a run whose phone is `run`: the run's stack, the scenario's profile over the run's and
    /// its fields; or why it cannot run there (it names another stack, or a profile on the BlueZ phone).
    package func effective(on run: PhoneChoice) -> Result<PhoneChoice, PhoneChoiceError> {
        let runStack = run.stack ?? .bluez
        if let stack, stack != runStack {
            return .failure(PhoneChoiceError(.otherPhone, "the scenario runs on the \(stack.rawValue) phone (run.phone.stack): hil run --phone \(stack.rawValue)"))
        }
        if runStack == .bluez, profile != nil || !fields.isEmpty {
            return .failure(PhoneChoiceError(.otherPhone, "the scenario's phone profile (run.phone) is the Bumble phone's: hil run --phone bumble"))
        }
        guard runStack == .bumble else { return .success(PhoneChoice(stack: .bluez)) }
        return .success(PhoneChoice(stack: .bumble, profile: profile ?? run.profile ?? Self.defaultProfile, fields: fields))
    }
}

/// A phone choice that is not one, or a scenario that cannot run on the run's phone, said as a sentence.
package typealias PhoneChoiceError = ModuleError<PhoneChoiceErrorCode>

/// The kinds of `PhoneChoiceError`.
package enum PhoneChoiceErrorCode: String, Sendable {
    /// `--phone`'s value or a field's is not one the phone takes.
    case invalid
    /// The scenario needs another phone than the run's.
    case otherPhone
}

extension PhoneChoice {
    /// `run.phone`: `{"stack": "bumble", "profile": "minimal", "mtu": 23}`, every key checked at its JSON path.
    static func read(_ value: JSONValue, at path: JSONPath, into problems: inout JSONProblems) -> PhoneChoice? {
        guard let object = problems.attempt({ () throws(JSONSchemaError) in try value.object(at: path) }) else { return nil }
        problems.rejectUnknownKeys(of: object, allowed: ["stack", "profile"] + fieldRules.keys.sorted(), at: path)
        var choice = PhoneChoice()
        if let v = object["stack"] {
            choice.stack = problems.attempt { () throws(JSONSchemaError) in try v.enumeration(Stack.self, at: path.appending("stack")) }
        }
        if let v = object["profile"], let text = problems.attempt({ () throws(JSONSchemaError) in try v.string(at: path.appending("profile")) }) {
            if profiles.contains(text) { choice.profile = text } else {
                problems.append(JSONSchemaError(.unknownValue, path.appending("profile"), "\(text.debugDescription) is no profile of the Bumble phone: \(profiles.joined(separator: ", "))"))
            }
        }
        for (key, rule) in fieldRules.sorted(by: { $0.key < $1.key }) {
            guard let v = object[key] else { continue }
            switch rule.check(v) {
            case .success(let text): choice.fields[key] = text
            case .failure(let error): problems.append(JSONSchemaError(.outOfRange, path.appending(key), error.what))
            }
        }
        if choice.stack == .bluez, choice.profile != nil || !choice.fields.isEmpty {
            problems.append(JSONSchemaError(path.appending("stack"), "a profile and its fields are the Bumble phone's: leave stack out, or make it \"bumble\""))
        }
        return choice
    }
}

extension PhoneChoice.FieldRule {
    /// The value as phone.py takes it, or what the field takes.
    func check(_ value: JSONValue) -> Result<String, PhoneChoiceError> {
        switch (self, value) {
        case (.integer(let range), .number(let n)) where n == n.rounded() && range.contains(Int(n)):
            return .success(String(Int(n)))
        case (.integer(let range), _):
            return .failure(PhoneChoiceError(.invalid, "expected a whole number from \(range.lowerBound) to \(range.upperBound), found \(Self.text(value))"))
        case (.word(let words), .string(let text)) where words.contains(text):
            return .success(text)
        case (.word(let words), _):
            return .failure(PhoneChoiceError(.invalid, "expected one of \(words.map { "\"\($0)\"" }.joined(separator: ", ")), found \(Self.text(value))"))
        case (.interval, .number(let n)) where Self.onGrid(n):
            return .success(JSONWriter.numberText(n))
        case (.interval, .string(let text)) where Self.range(text) != nil:
            return .success(text)
        case (.interval, _):
            return .failure(PhoneChoiceError(.invalid, "expected a connection interval in ms (7.5 to 4000 in steps of 1.25) or \"MIN-MAX\", found \(Self.text(value))"))
        case (.update, .string(let text)) where text == "none" || Self.range(text) != nil:
            return .success(text)
        case (.update, _):
            return .failure(PhoneChoiceError(.invalid, "expected \"none\" or \"MIN-MAX\" in ms (7.5 to 4000 in steps of 1.25), found \(Self.text(value))"))
        }
    }

    static func text(_ value: JSONValue) -> String {
        switch value {
        case .string(let text): text.debugDescription
        case .number(let n): JSONWriter.numberText(n)
        default: value.kindName
        }
    }

    static func onGrid(_ ms: Double) -> Bool { (7.5...4000).contains(ms) && (ms / 1.25).rounded() == ms / 1.25 }

    /// `"15-30"`: two intervals on the grid, the first not above the second.
    static func range(_ text: String) -> (Double, Double)? {
        let parts = text.split(separator: "-").compactMap { Double($0) }
        guard parts.count == 2, onGrid(parts[0]), onGrid(parts[1]), parts[0] <= parts[1] else { return nil }
        return (parts[0], parts[1])
    }
}
