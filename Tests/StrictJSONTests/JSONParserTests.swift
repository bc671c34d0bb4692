import Foundation
import StrictJSON
import Testing

@Suite("Strict JSON parser")
struct JSONParserTests {
    let parser = JSONParser()

    @Test("parses every kind of value and keeps key order")
    func parsesValues() throws {
        let value = try parser.parse(#" {"b": [1, 2.5, -0.25e2, true, false, null], "a": {"s": "x\u00e9\n"}} "#)
        let object = try #require(try? value.object(at: .root))
        #expect(object.keys == ["b", "a"])
        #expect(object["b"] == [1, 2.5, -25, true, false, nil])
        #expect(object["a"] == ["s": "xé\n"])
    }

    @Test("10 and 10.0 are the same number")
    func integralForms() throws {
        #expect(try parser.parse("10") == .number(10))
        #expect(try parser.parse("10.0") == .number(10))
        #expect(try parser.parse("1e1") == .number(10))
    }

    @Test("surrogate pairs decode to one scalar")
    func surrogatePairs() throws {
        #expect(try parser.parse(#""\ud83d\ude00""#) == .string("😀"))
    }

    @Test(
        "refuses what is not one strict JSON value",
        arguments: [
            ("", JSONParseError.Reason.empty),
            ("   ", .empty),
            (#"{"a":1} x"#, .trailingGarbage),
            (#"{"a":1}{"a":1}"#, .trailingGarbage),
            ("NaN", .nonFiniteNumber("NaN")),
            ("[Infinity]", .nonFiniteNumber("Infinity")),
            ("[-Infinity]", .nonFiniteNumber("-Infinity")),
            ("1e400", .numberOutOfRange("1e400")),
            ("-1e400", .numberOutOfRange("-1e400")),
            ("01", .invalidNumber("01")),
            ("1.", .invalidNumber("1.")),
            ("-", .invalidNumber("-")),
            ("1x", .invalidNumber("1x")),
            (#"{"a":1,"a":2}"#, .duplicateKey("a")),
            (#"{"a":1,}"#, .unexpectedByte(UInt8(ascii: "}"), expected: "a key string")),
            ("[1,]", .unexpectedByte(UInt8(ascii: "]"), expected: "a value")),
            (#"{"a" 1}"#, .unexpectedByte(UInt8(ascii: "1"), expected: "':'")),
            (#"{"a":1"#, .unexpectedEnd(expected: "',' or '}'")),
            (#""abc"#, .unexpectedEnd(expected: "'\"' closing the string")),
            ("\"a\u{01}\"", .controlCharacterInString(1)),
            (#""\x""#, .invalidEscape),
            (#""\ud800""#, .invalidEscape),
            (#""\udc00""#, .invalidEscape),
            ("tru", .unexpectedEnd(expected: "'true'")),
            ("truex", .invalidLiteral("truex")),
            ("nul", .unexpectedEnd(expected: "'null'")),
            ("[nope]", .invalidLiteral("nope")),
            ("Nan", .invalidLiteral("Nan")),
            ("{'a':1}", .unexpectedByte(UInt8(ascii: "'"), expected: "a key string")),
        ])
    func refuses(text: String, reason: JSONParseError.Reason) {
        #expect(throws: JSONParseError.self) { try parser.parse(text) }
        do {
            _ = try parser.parse(text)
        } catch {
            #expect(error.reason == reason, "\(text): \(error)")
        }
    }

    @Test("refuses invalid UTF-8 inside strings")
    func invalidUTF8() {
        let bytes: [UInt8] = [0x22, 0xC3, 0x28, 0x22]
        do {
            _ = try parser.parse(bytes)
            Issue.record("invalid UTF-8 parsed")
        } catch {
            #expect(error.reason == .invalidUTF8)
        }
    }

    @Test("limits nesting, so hostile input cannot exhaust the stack")
    func depthLimit() throws {
        let shallow = String(repeating: "[", count: 8) + String(repeating: "]", count: 8)
        #expect(throws: Never.self) { try JSONParser(maxDepth: 8).parse(shallow) }
        let deep = String(repeating: "[", count: 9) + String(repeating: "]", count: 9)
        #expect(throws: JSONParseError.self) { try JSONParser(maxDepth: 8).parse(deep) }
        let hostile = String(repeating: "[", count: 100_000)
        do {
            _ = try parser.parse(hostile)
            Issue.record("100,000 open brackets parsed")
        } catch {
            #expect(error.reason == .tooDeep(limit: 64))
        }
    }

    @Test("errors give line and column")
    func positions() {
        do {
            _ = try parser.parse("{\n  \"a\": 1,\n  \"b\": nope\n}")
            Issue.record("parsed")
        } catch {
            #expect(error.line == 3)
            #expect(error.column == 8)
            #expect(
                error.description
                    == "line 3, column 8: 'nope' is not a JSON value (true, false, null, a number, a string, an array or an object)")
        }
    }
}
