import ArgumentParser
@testable import hil
import GestureScript
import Peripheral
import Scenario
import Testing

/// Every command's `--help`, as a new user reads it in a terminal 80 or 120 columns wide.
@Suite("hil --help: argument-parser wraps every text, and lists every value")
struct HelpTests {
    /// Every command under `hil`, by its path (`vm exec`); `hil` itself is "".
    static let commands: [(path: String, type: any ParsableCommand.Type)] = walk(HIL.self, path: [])

    private static func walk(_ command: any ParsableCommand.Type, path: [String]) -> [(path: String, type: any ParsableCommand.Type)] {
        [(path.joined(separator: " "), command)] + command.configuration.subcommands.flatMap { sub in
            walk(sub, path: path + [sub.configuration.commandName ?? "?"])
        }
    }

    /// Lines of `help` that end where argument-parser would not have ended them: the next line goes on at the same
    /// indent, and its first word (with the space before it and one after) would have fitted. argument-parser only
    /// breaks a line where the next word does not fit, so such a break is a newline in the text itself, mid-sentence
    /// unless the line ends a sentence.
    static func hardBreaks(_ help: String, columns: Int) -> [String] {
        let lines = help.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        return zip(lines, lines.dropFirst()).compactMap { line, next in
            let text = line.trimmingTrailingSpaces
            guard let indent = textColumn(text), let word = next.split(separator: " ").first,
                  next.prefix(while: { $0 == " " }).count == indent, let last = text.last, !".:;!?".contains(last)
            else { return nil }
            return text.count + 2 + word.count <= columns ? text : nil
        }
    }

    /// Where a line's text starts: after its indent, or, on an option's or subcommand's first line, after its label.
    private static func textColumn(_ line: String) -> Int? {
        guard line.contains(where: { $0 != " " }) else { return nil }
        let indent = line.prefix { $0 == " " }.count
        guard indent == 2, let gap = line.dropFirst(2).firstRange(of: "  ") else { return indent }
        let label = line[..<gap.lowerBound]
        return label.count + line[gap.lowerBound...].prefix { $0 == " " }.count
    }

    @Test("the rule finds the old hard breaks")
    func ruleFindsHardBreaks() {
        let old = """
            OVERVIEW: RemoteTouch hardware-in-the-loop rig.

            The phone (BLE central) turns gestures into JSON commands; the computer (BLE
            peripheral) turns them
            into cursor, click, key and media events. `hil` emulates the phone, runs the
            computer side on real
            BlueZ and uinput, and verifies what comes out.
            """
        #expect(Self.hardBreaks(old, columns: 80) == ["peripheral) turns them", "computer side on real"])
    }

    @Test("no line of any command's help ends mid-sentence before the width", arguments: [80, 120])
    func wrapping(columns: Int) {
        for (path, type) in Self.commands {
            let help = HIL.helpMessage(for: type, columns: columns)
            #expect(Self.hardBreaks(help, columns: columns) == [], "hil \(path) --help at \(columns) columns")
            for ending in ["on real", "turns them", "BlueZ and"] {
                #expect(!help.split(separator: "\n").contains { $0.hasSuffix(ending) }, "hil \(path): \(ending)")
            }
        }
    }

    /// An option's entry in one command's help, at a width that wraps nothing: its label (`--gap <duration>`) and
    /// its abstract, on one line.
    static func entry(_ label: String, of command: String) throws -> String {
        let type = try #require(commands.first { $0.path == command }?.type, "no command hil \(command)")
        let lines = HIL.helpMessage(for: type, columns: 10_000).split(separator: "\n").map(String.init)
        let index = try #require(lines.firstIndex { $0.hasPrefix("  \(label) ") || $0 == "  \(label)" },
                                 "no \(label) in hil \(command) --help")
        // A long label has the abstract on the next line.
        let abstract = lines[index].trimmingTrailingSpaces == "  \(label)" && index + 1 < lines.count ? " " + lines[index + 1] : ""
        return lines[index] + abstract
    }

    /// The `(values: …)` an option's help lists.
    static func values(_ option: String, of command: String) throws -> [String] {
        let line = try entry(option, of: command)
        let list = try #require(line.firstRange(of: "(values: ").map { line[$0.upperBound...] }, "\(line)")
        return list.prefix { $0 != ";" && $0 != ")" }.split(separator: ", ").map(String.init)
    }

    @Test("every --transport lists every transport it accepts")
    func transports() throws {
        let scenarioTransports = Transport.allCases.map(\.rawValue)
        #expect(try Self.values("--transport", of: "run") == scenarioTransports + ["all"])
        #expect(try Self.values("--transport", of: "bench") == scenarioTransports + ["all"])
        #expect(try Self.values("--transport", of: "record") == scenarioTransports)
        #expect(try Self.values("--transport", of: "peripheral") == PeripheralConfiguration.Endpoint.allCases.map(\.rawValue))
        #expect(try Self.values("--write-path", of: "run") == WritePath.allCases.map(\.rawValue))
        for command in ["bench", "soak"] {
            #expect(try Self.values("--write-path", of: command) == ["dbus", "fd"])
        }
    }

    @Test("defaults are argument-parser's, never written by hand beside them")
    func defaults() {
        for (path, type) in Self.commands {
            let help = HIL.helpMessage(for: type, columns: 10_000)
            for line in help.split(separator: "\n") {
                let withoutParser = line.replacing(/\((values: [^)]*; )?default: [^)]*\)/, with: "")
                #expect(!withoutParser.contains("default"), "hil \(path): \(line)")
            }
        }
    }
}

extension String {
    var trimmingTrailingSpaces: String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
