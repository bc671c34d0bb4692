import Foundation
import HILTestSupport
import Testing
@testable import Verifier

/// The accounting oracle's tables against the documents they were written from (docs/protocol-keys.md and
/// docs/protocol.md's "What each command does on Linux"), never against the computer's `MappingTable`: a fault in the
/// mapping then shows as the computer leaving the document, and a document changed without the oracle fails here.
@Suite("the accounting oracle's tables against docs/protocol-keys.md and docs/protocol.md")
struct ContractTablesDocTests {
    @Test("every keyPress name with its evdev key, and the modifiers")
    func keysAndModifiers() throws {
        let keys = try markdownTable("docs/protocol-keys.md", under: "## Keys")
        #expect(keys.count == 73)
        #expect(ContractTables.keys.count == keys.count)
        for row in keys {
            #expect(ContractTables.keys[codeSpan(row[0])] == codeSpan(row[1]), "\(row[0])")
        }
        let modifiers = try markdownTable("docs/protocol-keys.md", under: "## Modifiers")
        #expect(ContractTables.modifiers.count == modifiers.count)
        for row in modifiers {
            #expect(ContractTables.modifiers[codeSpan(row[0])] == codeSpan(row[1]), "\(row[0])")
        }
    }

    @Test("text: letters, and every ASCII character the table types (and no other) with its key and Shift")
    func text() throws {
        var documented: [Character: (key: String, shift: Bool)] = [:]
        for row in try markdownTable("docs/protocol-keys.md", under: "## Text") {
            if let plain = Self.character(row[1]) { documented[plain] = (codeSpan(row[0]), false) }
            if let shifted = Self.character(row[2]) { documented[shifted] = (codeSpan(row[0]), true) }
        }
        for scalar in (0...127).compactMap(Unicode.Scalar.init) {
            let character = Character(scalar)
            let stroke = ContractTables.stroke(character)
            if ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) {
                #expect(stroke?.key == String(character).lowercased() && stroke?.shift == ("A"..."Z").contains(scalar))
                continue
            }
            let wanted = documented[character]
            #expect(stroke?.key == wanted?.key && stroke?.shift == wanted?.shift, "U+\(String(scalar.value, radix: 16))")
        }
        #expect(ContractTables.stroke("é") == nil)
    }

    @Test("the buttons by mode, the media keys and the three-finger gestures, as the command table gives them")
    func commandTable() throws {
        let rows = try markdownTable("docs/protocol.md", under: "## What each command does on Linux")
        func keys(_ cell: String) -> [String] {
            cell.components(separatedBy: "`").enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
        }
        func row(_ command: String, _ mode: String) throws -> [String] {
            try keys(#require(rows.first { $0[0] == command && $0[1] == mode })[2])
        }
        #expect(ContractTables.buttonChord("back", mode: "presentation") == (try row("button back", "presentation")))
        #expect(ContractTables.buttonChord("forward", mode: "presentation") == (try row("button forward", "presentation")))
        #expect(ContractTables.buttonChord("back", mode: "basicMouse") == (try row("button back", "basicMouse")))
        #expect(ContractTables.buttonChord("forward", mode: "basicMouse") == (try row("button forward", "basicMouse")))
        let media = try row("button back / forward", "mediaControl")
        #expect([ContractTables.buttonChord("back", mode: "mediaControl")?[0], ContractTables.buttonChord("forward", mode: "mediaControl")?[0]] == media)
        #expect(["playPause", "volumeUp", "volumeDown"].map { ContractTables.media[$0] } == (try row("mediaControl", "any")))
        let gestures = try row("systemGesture", "any")
        #expect(gestures == ["KEY_LEFTMETA", "KEY_LEFTMETA", "KEY_A", "KEY_LEFTCTRL", "KEY_LEFTALT", "KEY_LEFT", "KEY_RIGHT"])
        #expect(ContractTables.systemGestures["missionControl"] == Array(gestures[0..<1]))
        #expect(ContractTables.systemGestures["appExpose"] == Array(gestures[1..<3]))
        #expect(ContractTables.systemGestures["spaceLeft"] == Array(gestures[3..<6]))
        #expect(ContractTables.systemGestures["spaceRight"] == Array(gestures[3..<5]) + [gestures[6]])
        let scroll = try #require(rows.first { $0[0] == "scroll(dx, dy)" })[2]
        #expect(scroll.contains("= 12·dy") && scroll.contains("full 120") && ContractTables.hiResUnitsPerPoint == 12)
        let pinch = try #require(rows.first { $0[0] == "pinch(scale)" })[2]
        #expect(pinch.contains("120·ln(scale)/ln(1.1)") && ContractTables.pinchScalePerNotch == 1.1)
    }

    @Test("a computer starts in basic mouse mode, as docs/protocol.md says")
    func initialMode() throws {
        let text = try String(contentsOf: packageRoot.appendingPathComponent("docs/protocol.md"), encoding: .utf8)
        #expect(text.contains("A computer starts in basic mouse mode"))
        #expect(ContractTables.initialMode == "basicMouse")
    }

    /// A character cell: a code span holding it, or `U+0020 (space)` for one a code span cannot show.
    static func character(_ cell: String) -> Character? {
        if cell.isEmpty { return nil }
        if cell.hasPrefix("U+") {
            let hex = cell.dropFirst(2).prefix { $0.isHexDigit }
            return UInt32(hex, radix: 16).flatMap(Unicode.Scalar.init).map(Character.init)
        }
        return codeSpan(cell).first
    }
}
