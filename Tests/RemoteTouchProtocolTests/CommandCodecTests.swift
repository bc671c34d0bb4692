import HILTestSupport
import RemoteTouchProtocol
import StrictJSON
import Testing

@Suite("Command wire format")
struct CommandCodecTests {
    @Test("golden vectors cover every command case")
    func coverage() {
        let covered = Set(commandVectors.map(\.command.name))
        #expect(covered == Set(Command.caseNames))
    }

    @Test("encodes to the golden bytes", arguments: commandVectors)
    func encodes(command: Command, json: String) {
        #expect(command.encoded() == Array(json.utf8))
    }

    @Test("decodes the golden bytes", arguments: commandVectors)
    func decodes(command: Command, json: String) throws {
        #expect(try Command.decode(Array(json.utf8)) == command)
    }

    @Test(
        "accepts what Apple's decoder accepts: 10.0 for 10, white space, any key order",
        arguments: [
            (#"{"cursorMove":{"delta":[10.0,-5.0]}}"#, Command.cursorMove(delta: Point(x: 10, y: -5))),
            (" {\n \"tap\" : { \"type\" : \"single\" } }\n", .tap(type: .single)),
            (#"{"scroll":{"dy":2,"dx":1}}"#, .scroll(dx: 1, dy: 2)),
            (#"{"keyPress":{"modifiers":["shift"],"key":"a"}}"#, .keyPress(key: .a, modifiers: [.shift])),
            (#"{"keyPress":{"key":"a"}}"#, .keyPress(key: .a, modifiers: [])),
            (#"{"pinch":{"scale":1.5e0}}"#, .pinch(scale: 1.5)),
        ])
    func lenient(json: String, command: Command) throws {
        #expect(try Command.decode(Array(json.utf8)) == command)
    }

    @Test(
        "refuses bad payloads with a message that says what was wrong",
        arguments: [
            (#"{"cursorMove":{"delta":[NaN,1]}}"#, ProtocolError.Code.notJSON, "'NaN' is not a finite number"),
            (#"{"cursorMove":{"delta":[1e400,1]}}"#, .notJSON, "does not fit in a Double"),
            (#"{"cursorMove":{"delta":[1e300,1]}}"#, .invalid, "cursorMove.delta[0]: 1e+300 is outside ±32767"),
            (#"{"cursorMove":{"delta":[1,-40000]}}"#, .invalid, "cursorMove.delta[1]: -40000 is outside ±32767"),
            (#"{"cursorMove":{"delta":[1]}}"#, .invalid, "cursorMove.delta: a point is [x, y]: expected 2 numbers, found 1"),
            (#"{"cursorMove":{"delta":{"x":1,"y":2}}}"#, .invalid, "cursorMove.delta: expected an array, found an object"),
            (#"{"cursorMove":{"delta":["1",2]}}"#, .invalid, "cursorMove.delta[0]: expected a number, found a string"),
            (#"{"cursorMove":{}}"#, .invalid, "cursorMove: missing required key \"delta\""),
            (#"{"cursorMove":{"delta":[1,2],"speed":3}}"#, .invalid, "cursorMove.speed: unknown key"),
            (#"{"teleport":{"to":[1,2]}}"#, .invalid, "teleport: unknown command; expected one of cursorMove"),
            (#"{"tap":{"type":"triple"}}"#, .invalid, "tap.type: unknown value \"triple\"; expected one of \"single\", \"double\""),
            (#"{"tap":{"type":"single"},"button":{"action":"back"}}"#, .invalid, "exactly one key"),
            (#"{}"#, .invalid, "exactly one key"),
            (#"[1,2]"#, .invalid, "(document): expected an object, found an array"),
            (#"{"tap":{"type":"single"}} garbage"#, .notJSON, "extra bytes after the JSON value"),
            (#"{"tap":{"type":"single"}"#, .notJSON, "document ends early"),
            (#"{"tap":{"type":"sin"#, .notJSON, "document ends early"),
            ("", .notJSON, "empty document"),
            (#"{"pinch":{"scale":0}}"#, .invalid, "pinch.scale: 0 is outside 0.01...100"),
            (#"{"pinch":{"scale":-2}}"#, .invalid, "pinch.scale: -2 is outside"),
            (#"{"text":{"string":""}}"#, .invalid, "text.string: text must not be empty"),
            (#"{"keyPress":{"key":"a","modifiers":["shift","shift"]}}"#, .invalid, "keyPress.modifiers[1]: modifier \"shift\" is listed twice"),
            (#"{"keyPress":{"key":"ä"}}"#, .invalid, "keyPress.key: unknown value"),
            (#"{"rightClick":{"now":true}}"#, .invalid, "rightClick.now: unknown key; allowed here: no keys"),
            (#"{"rightClick":null}"#, .invalid, "rightClick: expected an object, found null"),
        ])
    func refuses(json: String, code: ProtocolError.Code, message: String) {
        do {
            let command = try Command.decode(Array(json.utf8))
            Issue.record("decoded \(command) from \(json)")
        } catch {
            #expect(error.code == code, "\(json)")
            #expect(error.description.contains(message), "\(error.description)")
            #expect(error.description.hasPrefix("command payload: "))
        }
    }

    @Test("refuses payloads over the 512-byte ATT limit, and accepts 512")
    func attLimit() throws {
        let prefix = #"{"text":{"string":""#
        let suffix = #""}}"#
        let fill = RemoteTouchService.maxAttributeLength - prefix.utf8.count - suffix.utf8.count
        let exact = prefix + String(repeating: "a", count: fill) + suffix
        #expect(exact.utf8.count == 512)
        #expect(try Command.decode(Array(exact.utf8)) == .text(string: String(repeating: "a", count: fill)))
        let over = prefix + String(repeating: "a", count: fill + 1) + suffix
        #expect(throws: ProtocolError(.tooLarge, payload: "command", "513 bytes is over the ATT limit of 512 bytes")) {
            try Command.decode(Array(over.utf8))
        }
    }

    @Test("refuses deep nesting without recursing far")
    func deepNesting() {
        let bytes = Array(String(repeating: "[", count: 400).utf8)
        do {
            _ = try Command.decode(bytes)
            Issue.record("decoded")
        } catch {
            #expect(error.code == .notJSON)
            #expect(error.message.contains("nested deeper than 8 levels"))
        }
    }

    @Test("refuses 512 random bytes, whatever they are")
    func randomGarbage() {
        var generator = SplitMix64(seed: 42)
        for _ in 0..<200 {
            let bytes = (0..<512).map { _ in UInt8.random(in: 0...255, using: &generator) }
            #expect(throws: ProtocolError.self) { try Command.decode(bytes) }
        }
    }

    @Test("every truncation of every golden vector is refused")
    func truncations() {
        for (_, json) in commandVectors {
            let bytes = Array(json.utf8)
            for length in 0..<bytes.count {
                #expect(throws: ProtocolError.self, "\(json) cut at \(length)") {
                    try Command.decode(bytes[0..<length])
                }
            }
        }
    }
}
