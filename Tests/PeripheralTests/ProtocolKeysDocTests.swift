import CommandMapping
import HILTestSupport
import RemoteTouchProtocol
import Testing

/// docs/protocol-keys.md against `MappingTable`: every keyPress name's evdev key, the modifiers, and the characters
/// `text` can type.
@Suite("docs/protocol-keys.md: the keyPress, modifier and text tables against MappingTable")
struct ProtocolKeysDocTests {
    static let doc = "docs/protocol-keys.md"

    @Test("every keyPress name, in the protocol's order, with the evdev key the computer presses")
    func keys() throws {
        let rows = try markdownTable(Self.doc, under: "## Keys")
        #expect(rows.map { codeSpan($0[0]) } == Key.allCases.map(\.rawValue))
        #expect(rows.count == 73)
        for (row, key) in zip(rows, Key.allCases) {
            #expect(codeSpan(row[1]) == MappingTable.keyCode(key).name, "\(key.rawValue)")
        }
    }

    @Test("every modifier, with its evdev key")
    func modifiers() throws {
        let rows = try markdownTable(Self.doc, under: "## Modifiers")
        #expect(rows.map { codeSpan($0[0]) } == KeyModifier.allCases.map(\.rawValue))
        for (row, modifier) in zip(rows, KeyModifier.allCases) {
            #expect(codeSpan(row[1]) == MappingTable.modifierKey(modifier).name, "\(modifier.rawValue)")
        }
    }

    /// A character cell: a code span holding it, or `U+0020 (space)` for one a code span cannot show.
    static func character(_ cell: String) throws -> Character? {
        if cell.isEmpty { return nil }
        if cell.hasPrefix("U+") {
            let hex = cell.dropFirst(2).prefix { $0.isHexDigit }
            return try #require(UInt32(hex, radix: 16).flatMap(Unicode.Scalar.init).map(Character.init))
        }
        let text = codeSpan(cell)
        #expect(text.count == 1, "not one character: \(cell)")
        return text.first
    }

    @Test("text: the characters typed besides letters, each with its key and Shift; every other ASCII character is refused")
    func text() throws {
        var documented: [Character: (key: String, shift: Bool)] = [:]
        for row in try markdownTable(Self.doc, under: "## Text") {
            let key = codeSpan(row[0])
            if let plain = try Self.character(row[1]) { documented[plain] = (key, false) }
            if let shifted = try Self.character(row[2]) { documented[shifted] = (key, true) }
        }
        for scalar in (0...127).compactMap(Unicode.Scalar.init) where !scalar.properties.isAlphabetic {
            let character = Character(scalar)
            let typed = MappingTable.usLayout(character)
            let expected = documented[character]
            #expect(typed?.key.rawValue == expected?.key && typed?.shift == expected?.shift,
                    "U+\(String(scalar.value, radix: 16)): the doc says \(String(describing: expected)), the code \(String(describing: typed))")
        }
    }
}
