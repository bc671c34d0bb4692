import Foundation
import Scenario
import StrictJSON
import Testing

/// `run.phone` and `hil run --phone` (issue 52): the phone a scenario runs on, every field checked at its JSON path,
/// and where a scenario cannot run.
@Suite("The phone a scenario runs on: run.phone and --phone")
struct PhoneChoiceTests {
    static func scenario(_ phone: String) throws -> Scenario {
        try Scenario.parse(try JSONParser().parse(#"{"name": "p", "run": {"phone": \#(phone)}, "steps": [{"tap": {}}]}"#), file: "p.json")
    }

    static func problem(_ phone: String) -> String {
        do {
            _ = try scenario(phone)
            return "accepted"
        } catch {
            return "\(error)"
        }
    }

    @Test("a stack, a profile and its fields are read as phone.py takes them")
    func reads() throws {
        let phone = try Self.scenario(#"{"stack": "bumble", "profile": "minimal", "mtu": 23, "interval": "15-30", "update": "none", "motion": "with"}"#).run.phone
        #expect(phone == PhoneChoice(stack: .bumble, profile: "minimal", fields: ["mtu": "23", "interval": "15-30", "update": "none", "motion": "with"]))
        #expect(phone.description == "bumble:minimal interval=15-30 motion=with mtu=23 update=none")
        #expect(try Self.scenario(#"{"interval": 7.5}"#).run.phone.fields == ["interval": "7.5"])
    }

    @Test("what validate refuses, at its JSON path and with what it takes", arguments: [
        (#"{"mtuu": 23}"#, "run.phone.mtuu: unknown key (did you mean \"mtu\"?)"),
        (#"{"mtu": 22}"#, "run.phone.mtu: expected a whole number from 23 to 517, found 22"),
        (#"{"mtu": 185.5}"#, "run.phone.mtu: expected a whole number from 23 to 517"),
        (#"{"eatt": 6}"#, "run.phone.eatt: expected a whole number from 0 to 5"),
        (#"{"profile": "pixel"}"#, "run.phone.profile: \"pixel\" is no profile of the Bumble phone"),
        (#"{"stack": "android"}"#, "run.phone.stack"),
        (#"{"motion": "maybe"}"#, "run.phone.motion: expected one of \"with\", \"without\", found \"maybe\""),
        (#"{"interval": 31}"#, "run.phone.interval: expected a connection interval in ms"),
        (#"{"update": "30-15"}"#, "run.phone.update: expected \"none\" or \"MIN-MAX\""),
        (#"{"stack": "bluez", "mtu": 23}"#, "run.phone.stack: a profile and its fields are the Bumble phone's"),
        (#""bumble""#, "run.phone: expected an object"),
    ])
    func refused(phone: String, says: String) {
        let message = Self.problem(phone)
        #expect(message.contains(says), "\(message)")
    }

    @Test("--phone: bluez, bumble or bumble:PROFILE; anything else names what it takes")
    func argument() throws {
        #expect(try PhoneChoice(parsing: "bumble:ios-like") == PhoneChoice(stack: .bumble, profile: "ios-like"))
        #expect(try PhoneChoice(parsing: "bluez") == PhoneChoice(stack: .bluez))
        for bad in ["android", "bluez:ios-like", "bumble:pixel"] {
            #expect(throws: PhoneChoiceError.self) { try PhoneChoice(parsing: bad) }
        }
    }

    @Test("on the run's phone: the scenario's profile over the run's; another stack, or a profile on BlueZ, cannot run")
    func effective() throws {
        let bumble = PhoneChoice(stack: .bumble, profile: "ios-like"), bluez = PhoneChoice(stack: .bluez)
        #expect(try PhoneChoice().effective(on: bumble).get() == PhoneChoice(stack: .bumble, profile: "ios-like"))
        #expect(try PhoneChoice(profile: "minimal", fields: ["mtu": "23"]).effective(on: bumble).get()
            == PhoneChoice(stack: .bumble, profile: "minimal", fields: ["mtu": "23"]))
        #expect(try PhoneChoice().effective(on: PhoneChoice(stack: .bumble)).get().profile == PhoneChoice.defaultProfile)
        #expect(try PhoneChoice().effective(on: bluez).get() == bluez)
        #expect(throws: PhoneChoiceError.self) { try PhoneChoice(stack: .bumble).effective(on: bluez).get() }
        #expect(throws: PhoneChoiceError.self) { try PhoneChoice(fields: ["mtu": "23"]).effective(on: bluez).get() }
        #expect(throws: PhoneChoiceError.self) { try PhoneChoice(stack: .bluez).effective(on: bumble).get() }
    }
}

/// The Swift side's words for the Bumble phone's profiles (`PhoneChoice`) and phone.py's tables (`PROFILES`,
/// `DEFAULTS`), which own the values: the same profile names and the same fields, so validate cannot accept a field
/// the phone refuses, nor refuse one it takes.
@Suite("PhoneChoice agrees with Rigs/bumble/phone.py")
struct PhoneChoiceAgreesWithPhoneTests {
    static func table(_ name: String) throws -> String {
        let source = try String(contentsOf: packageRoot.appendingPathComponent("Rigs/bumble/phone.py"), encoding: .utf8)
        let start = try #require(source.range(of: "\n\(name) = {\n"))
        let end = try #require(source.range(of: "\n}\n", range: start.upperBound..<source.endIndex))
        return String(source[start.upperBound..<end.lowerBound])
    }

    /// The keys of a Python dict literal's top level, one entry a line: `    'mtu': 517,  # …`.
    static func keys(_ table: String) -> [String] {
        table.split(separator: "\n").compactMap { line -> String? in
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix("'"), let close = trimmed.dropFirst().firstIndex(of: "'") else { return nil }
            return String(trimmed[trimmed.index(after: trimmed.startIndex)..<close])
        }
    }

    @Test("the same profile names and the same fields")
    func same() throws {
        #expect(Self.keys(try Self.table("PROFILES")).sorted() == PhoneChoice.profiles.sorted())
        #expect(Self.keys(try Self.table("DEFAULTS")).sorted() == PhoneChoice.fieldRules.keys.sorted())
    }
}
