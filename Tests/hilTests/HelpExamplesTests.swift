import ArgumentParser
import Foundation
@testable import hil
import HILTestSupport
import Testing

/// Every example a newcomer copies (issue "A newcomer never stumbles", item 2): each `Example:` of every command's
/// `--help` and each `swift run hil` line of README.md parses as hil parses it, and those that need no rig run as
/// shown and exit 0.
@Suite("The examples in every --help and in README.md run as shown")
struct HelpExamplesTests {
    /// Commands an example may run here: offline ones, with what they read in the project folder.
    static let offline: [[String]] = [["decode"], ["validate"], ["replay"], ["run", "--list"], ["rig", "main-conf"]]

    /// `a 'b c' "d"` → ["a", "b c", "d"]; a `> file` redirection and what follows it are left out.
    static func words(_ line: String) -> [String] {
        var words: [String] = [], word = "", quote: Character?, started = false
        for character in line {
            if let open = quote {
                if character == open { quote = nil } else { word.append(character) }
            } else if character == "'" || character == "\"" {
                quote = character
                started = true
            } else if character == " " {
                if started || !word.isEmpty { words.append(word) }
                word = ""
                started = false
            } else {
                word.append(character)
            }
        }
        if started || !word.isEmpty { words.append(word) }
        if let redirect = words.firstIndex(of: ">") { words.removeSubrange(redirect...) }
        return words
    }

    /// The examples of one help text: after `Example:` or `Examples:`, to the paragraph's end, split at `; hil `,
    /// each without a closing `(comment)`; as the words after `hil`.
    static func examples(inHelp text: String) -> [[String]] {
        let flat = text.replacingOccurrences(of: "\\\n", with: "").replacingOccurrences(of: "\n", with: " ")
        var found: [[String]] = []
        for marker in ["Examples: ", "Example: "] {
            var rest = Substring(flat)
            while let range = rest.range(of: marker) {
                let paragraph = rest[range.upperBound...].prefix { $0 != "\u{0}" }
                let end = paragraph.range(of: "  ")?.lowerBound ?? paragraph.endIndex
                for part in paragraph[..<end].components(separatedBy: "; hil ") {
                    let trimmed = part.trimmingCharacters(in: .whitespaces)
                    var example = trimmed.hasPrefix("hil ") ? String(trimmed.dropFirst(4)) : trimmed
                    if example.hasSuffix(")"), let open = example.range(of: " (", options: .backwards) {
                        example = String(example[..<open.lowerBound])
                    }
                    if example.hasSuffix(".") { example.removeLast() }
                    found.append(words(example))
                }
                rest = rest[range.upperBound...]
            }
        }
        return found
    }

    /// README.md's `swift run hil …` lines, without their `# comment`, as the words after `hil`.
    static func readmeExamples() throws -> [[String]] {
        let text = try String(contentsOf: packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        return text.split(separator: "\n").compactMap { line -> [String]? in
            guard let start = line.range(of: "swift run hil ")?.upperBound ?? line.range(of: "swift run -c release hil ")?.upperBound
            else { return nil }
            let command = line[start...].components(separatedBy: "  #").first ?? ""
            return words(command.trimmingCharacters(in: .whitespaces))
        }
    }

    /// The `swift run hil …` lines of docs/*.md and Rigs/README.md, in code blocks and inline code alike: each cut at
    /// its code's end (a backquote), its `# comment` and a line continuation, as the words after `hil`, with the
    /// document it came from. `--help` lines are left out (they ask for help, which is no parse).
    static func docsExamples() throws -> [(document: String, words: [String])] {
        let docs = try FileManager.default.contentsOfDirectory(atPath: packageRoot.appendingPathComponent("docs").path)
            .filter { $0.hasSuffix(".md") }.map { "docs/" + $0 } + ["Rigs/README.md"]
        return try docs.sorted().flatMap { document in
            let text = try String(contentsOf: packageRoot.appendingPathComponent(document), encoding: .utf8)
            return text.split(separator: "\n").compactMap { line -> (String, [String])? in
                guard let start = line.range(of: "swift run hil ")?.upperBound ?? line.range(of: "swift run -c release hil ")?.upperBound
                else { return nil }
                var command = String(line[start...].prefix { $0 != "`" })
                command = command.components(separatedBy: "  #").first ?? ""
                command = command.trimmingCharacters(in: .whitespaces)
                if command.hasSuffix("\\") { command.removeLast() }
                let words = words(command.trimmingCharacters(in: .whitespaces))
                return words.isEmpty || words.contains("--help") ? nil : (document, words)
            }
        }
    }

    static func helpExamples() -> [(command: String, words: [String])] {
        HelpTests.commands.flatMap { command, type in
            let configuration = type.configuration
            return examples(inHelp: configuration.abstract + "\n\n" + configuration.discussion + "\n\u{0}").map { (command, $0) }
        }
    }

    @Test("each help has its examples found, and each parses as hil parses its command line")
    func helpExamplesParse() throws {
        let all = Self.helpExamples()
        #expect(all.count >= 5, "examples found: \(all)")
        for (command, words) in all {
            #expect(words.starts(with: command.split(separator: " ").map(String.init)), "hil \(command)'s example is another command's: \(words)")
            #expect(throws: Never.self, "hil \(command)'s example: hil \(words.joined(separator: " "))") { _ = try HIL.parseAsRoot(words) }
        }
    }

    @Test("each README example parses as hil parses its command line")
    func readmeExamplesParse() throws {
        let all = try Self.readmeExamples()
        #expect(all.count >= 20, "README examples found: \(all.count)")
        for words in all {
            #expect(throws: Never.self, "README: hil \(words.joined(separator: " "))") { _ = try HIL.parseAsRoot(words) }
        }
    }

    @Test("each hil line of docs/ and Rigs/README.md names options its command has, as hil parses them")
    func docsExamplesParse() throws {
        let all = try Self.docsExamples()
        #expect(all.count >= 30, "docs examples found: \(all.count)")
        for (document, words) in all {
            #expect(throws: Never.self, "\(document): hil \(words.joined(separator: " "))") { _ = try HIL.parseAsRoot(words) }
        }
    }

    @Test("the examples that need no rig run as shown, in the project folder, and exit 0")
    func offlineExamplesRun() async throws {
        let runnable = (Self.helpExamples().map(\.words) + (try Self.readmeExamples()))
            .filter { words in Self.offline.contains { words.starts(with: $0) } }
        #expect(runnable.count >= 8, "\(runnable)")
        for words in runnable {
            let run = try await runSeparating(try RigGuest.hilBinary(), words, in: packageRoot)
            #expect(run.status == 0, "hil \(words.joined(separator: " ")) exited \(run.status): \(run.errors.suffix(600))")
        }
    }

    @Test("the word splitter keeps quoted text whole and drops a redirection")
    func splitter() {
        #expect(Self.words(#"decode '{"a": 1}' --mode presentation"#) == ["decode", #"{"a": 1}"#, "--mode", "presentation"])
        #expect(Self.words("rig main-conf --rig hardware > main.conf") == ["rig", "main-conf", "--rig", "hardware"])
        #expect(Self.examples(inHelp: "Examples: hil decode 01 (a report); hil decode aa.\n\u{0}") == [["decode", "01"], ["decode", "aa"]])
    }

    @Test("the script lines of README and docs/developing.md name scripts that exist, with the arguments their usage asks for")
    func readmeScripts() throws {
        let text = try String(contentsOf: packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let developing = try String(contentsOf: packageRoot.appendingPathComponent("docs/developing.md"), encoding: .utf8)
        let lines = (text + "\n" + developing).split(separator: "\n").filter { $0.hasPrefix("bash ") && !$0.contains("&&") }
        #expect(lines.count >= 4, "\(lines)")
        for line in lines {
            let words = Self.words(String(line.components(separatedBy: "  #").first ?? ""))
            let script = packageRoot.appendingPathComponent(words[1]).path
            #expect(FileManager.default.isReadableFile(atPath: script), "README names \(words[1]), which is not there")
            if words[1] == "Benchmarks/bench-in-one-guest.sh" {
                // Its usage: NAME=PATH of a hil binary, each.
                for pair in words.dropFirst(2) {
                    #expect(pair.contains("=") && pair.split(separator: "=").last?.hasSuffix("/hil") == true, "\(pair) is not NAME=PATH of a hil")
                }
            }
        }
        #expect(text.contains("root or sudo") && text.contains("Swift 6"), "the set-up names what it needs")
    }
}
