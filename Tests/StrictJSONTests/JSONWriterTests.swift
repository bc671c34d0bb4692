import Foundation
import HILTestSupport
import StrictJSON
import Testing

@Suite("JSON writer matches Apple's JSONEncoder")
struct JSONWriterTests {
    private struct Box: Encodable {
        let value: Double
    }

    private struct Text: Encodable {
        let value: String
    }

    private func foundation(_ value: some Encodable) throws -> String {
        String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
    }

    @Test(
        "numbers are written as JSONEncoder writes Double",
        arguments: [0, -0.0, 1, -5, 10.5, 0.1 + 0.2, 1e16, 1e-7, 123_456_789.125, 785_000_000.5, 32767, -32768,
                    Double.leastNonzeroMagnitude, Double.greatestFiniteMagnitude])
    func numbers(value: Double) throws {
        let ours = JSONWriter().string(["value": .number(value)])
        #expect(ours == (try foundation(Box(value: value))))
    }

    @Test("random numbers round-trip and match JSONEncoder")
    func randomNumbers() throws {
        var generator = SplitMix64(seed: 0x5EED)
        for _ in 0..<2000 {
            let value = Double(bitPattern: generator.next())
            guard value.isFinite else { continue }
            let ours = JSONWriter().string(["value": .number(value)])
            #expect(ours == (try foundation(Box(value: value))))
            #expect(try JSONParser().parse(ours) == ["value": .number(value)])
        }
    }

    @Test(
        "strings are escaped as JSONEncoder escapes them (slash too)",
        arguments: ["plain", "a/b", "quote\" back\\slash", "\n\r\t\u{08}\u{0C}", "\u{01}\u{1F}\u{7F}", "é😀", ""])
    func strings(text: String) throws {
        let ours = JSONWriter().string(["value": .string(text)])
        #expect(ours == (try foundation(Text(value: text))))
        #expect(try JSONParser().parse(ours) == ["value": .string(text)])
    }

    @Test("pretty output uses two spaces and ' : '")
    func pretty() {
        let text = JSONWriter(pretty: true).string(["a": [1, 2], "b": [:], "c": []])
        #expect(text == "{\n  \"a\" : [\n    1,\n    2\n  ],\n  \"b\" : {},\n  \"c\" : []\n}")
    }
}
