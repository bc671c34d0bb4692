import StrictJSON
import Testing

@Suite("Where a value was written, and what a misspelt name meant")
struct PositionsAndSuggestionTests {
    @Test("parseLocated: a member at its key, an element at its first character, a missing key at its object")
    func positions() throws {
        let text = """
            {
              "name": "é x",
              "steps": [
                { "tap": {} },
                  {"wait": {"ms": 5}}
              ]
            }
            """
        let (value, positions) = try JSONParser().parseLocated(Array(text.utf8))
        #expect(value == (try JSONParser().parse(text)))
        let steps = JSONPath.root.appending("steps")
        #expect(positions.location(of: .root) == JSONLocation(line: 1, column: 1))
        #expect(positions.location(of: .root.appending("name")) == JSONLocation(line: 2, column: 3))
        #expect(positions.location(of: steps.appending(0)) == JSONLocation(line: 4, column: 5))
        #expect(positions.location(of: steps.appending(0).appending("tap")) == JSONLocation(line: 4, column: 7))
        #expect(positions.location(of: steps.appending(1).appending("wait").appending("ms")) == JSONLocation(line: 5, column: 17))
        // Not in the document (a required key that is missing): the nearest ancestor that is.
        #expect(positions.location(of: steps.appending(1).appending("wait").appending("forMs")) == JSONLocation(line: 5, column: 8))
        #expect(JSONLocation(line: 5, column: 8).description == "5:8")
    }

    @Test("columns count characters, not UTF-8 bytes, as the parser's own errors do")
    func columnsInCharacters() throws {
        let (_, positions) = try JSONParser().parseLocated(Array(#"{"é": 1, "b": 2}"#.utf8))
        #expect(positions.location(of: .root.appending("b")) == JSONLocation(line: 1, column: 10))
    }

    @Test("the closest name: a typo, a swap, another case, a longer word that starts with it; none when far")
    func closest() {
        let keys = ["keys", "frames", "motion", "phone", "status", "received", "withinMs"]
        #expect(Suggestion.closest(to: "phon", among: keys) == "phone")
        #expect(Suggestion.closest(to: "motoin", among: keys) == "motion")
        #expect(Suggestion.closest(to: "withinMS", among: keys) == "withinMs")
        #expect(Suggestion.closest(to: "recieved", among: keys) == "received")
        #expect(Suggestion.closest(to: "KEY_LEFTARROW", among: ["KEY_L", "KEY_LEFT", "KEY_LEFTCTRL"]) == "KEY_LEFT")
        #expect(Suggestion.closest(to: "colour", among: keys) == nil)
        #expect(Suggestion.closest(to: "x", among: keys) == nil)
    }

    @Test("unknown keys and values name the one most likely meant")
    func messages() throws {
        let object = try JSONParser().parse(#"{"phon": "idle"}"#).object(at: .root)
        #expect(throws: JSONSchemaError(.unknownKey, .root.appending("phon"), #"unknown key (did you mean "phone"?); allowed here: "keys", "phone""#)) {
            try object.rejectUnknownKeys(allowed: ["keys", "phone"], at: .root)
        }
        enum Activity: String, CaseIterable { case idle, active }
        #expect(throws: JSONSchemaError(.unknownValue, .root, #"unknown value "idel" (did you mean "idle"?); expected one of "idle", "active""#)) {
            try JSONValue.string("idel").enumeration(Activity.self, at: .root)
        }
    }
}
