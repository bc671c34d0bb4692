import Foundation
import Testing

/// What the documents state that the tree can contradict (issue 54, item 8): the suites' scenario counts, and every
/// citation of a section (`docs/protocol.md, "Order"`) naming a section that is there.
@Suite("The documents agree with the tree: suite counts, and the sections they cite")
struct DocsAgreeTests {
    static let root = PackageLayoutTests.root

    static func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// The scenario files of a suite folder, as `hil run` finds them (not the catalog, not the schema).
    static func scenarioCount(_ folder: String) throws -> Int {
        let base = root.appendingPathComponent(folder).path
        let files = try FileManager.default.subpathsOfDirectory(atPath: base)
        return files.filter { $0.hasSuffix(".json") && !$0.hasSuffix("requirements.json") && !$0.hasSuffix(".schema.json") }.count
    }

    @Test("docs/scenarios.md's counts of the quick and nightly suites are the tree's")
    func suiteCounts() throws {
        let (quick, nightly) = (try Self.scenarioCount("Scenarios"), try Self.scenarioCount("Scenarios-nightly"))
        let scenarios = try Self.text("docs/scenarios.md")
        let table = try #require(scenarios.split(separator: "\n").first { $0.hasPrefix("| `Scenarios/` | the **quick suite**") })
        #expect(table.contains(", \(quick) scenarios |"), "the quick suite has \(quick): \(table)")
        let listing = "\(quick + nightly) scenario(s) in 2 folders: Scenarios/ \(quick), Scenarios-nightly/ \(nightly)"
        #expect(scenarios.contains(listing), "hil run --list's first line would be: \(listing)")
    }

    /// A document's sections: its headings and its bold run-in ones (`**The error budget.**`), in plain words (no
    /// backticks, one space between words).
    static func sections(_ text: String) -> [String] {
        let headings = text.split(separator: "\n").filter { $0.hasPrefix("#") }.map { String($0.drop { $0 == "#" }) }
        let runIn = try! NSRegularExpression(pattern: #"\*\*([^*]+?)\.?\*\*"#)
        let bold = runIn.matches(in: text, range: NSRange(text.startIndex..., in: text))
            .compactMap { Range($0.range(at: 1), in: text).map { String(text[$0]) } }
        return (headings + bold).map(plain)
    }

    static func plain(_ text: String) -> String {
        text.replacingOccurrences(of: "`", with: "").split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// Every `FILE.md, "Section"` in the documents and in the sources' help texts: where it is, the file and section.
    static func citations() throws -> [(at: String, file: String, section: String)] {
        let pattern = try NSRegularExpression(pattern: #"((?:docs/|Rigs/)?[\w-]+\.md), \\?"([^"\\]+)\\?""#)
        let manager = FileManager.default
        var places = ["README.md", "Rigs/README.md"] + (try manager.contentsOfDirectory(atPath: root.appendingPathComponent("docs").path))
            .filter { $0.hasSuffix(".md") }.map { "docs/" + $0 }
        places += (try manager.subpathsOfDirectory(atPath: root.appendingPathComponent("Sources").path))
            .filter { $0.hasSuffix(".swift") }.map { "Sources/" + $0 }
        var found: [(String, String, String)] = []
        for place in places {
            let text = try Self.text(place)
            for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                guard let file = Range(match.range(at: 1), in: text), let section = Range(match.range(at: 2), in: text) else { continue }
                found.append((place, String(text[file]), plain(String(text[section]))))
            }
        }
        return found
    }

    /// The document a citation means: `docs/x.md` or `x.md` in docs/, README.md at the top, Rigs/README.md; nil for a
    /// document outside this tree (the product's design documents).
    static func document(_ name: String) -> String? {
        let candidates = name.contains("/") ? [name] : ["docs/" + name, name]
        return candidates.first { FileManager.default.fileExists(atPath: root.appendingPathComponent($0).path) }
    }

    /// Where `text` names work by the team's session number ("stop 42", "stops 41–42"), one place per line.
    static func stopNumbers(in text: String) -> [Int] {
        let pattern = try! NSRegularExpression(pattern: #"\b[Ss]tops? [0-9]{2,}"#)
        return text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().compactMap { number, line in
            let line = String(line)
            return pattern.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)) == nil ? nil : number + 1
        }
    }

    @Test("no work named by a stop number (\"stop 42\") in docs/ or README.md: its date and commit instead")
    func noStopNumbers() throws {
        let places = ["README.md", "Rigs/README.md"]
            + (try FileManager.default.contentsOfDirectory(atPath: Self.root.appendingPathComponent("docs").path))
                .filter { $0.hasSuffix(".md") }.map { "docs/" + $0 }
        #expect(places.count >= 10, "\(places)")
        for place in places {
            let lines = Self.stopNumbers(in: try Self.text(place))
            #expect(lines.isEmpty, """
                \(place), lines \(lines): a stop number means nothing outside the team: name the date and the commit \
                (git log) instead
                """)
        }
        #expect(Self.stopNumbers(in: "one\n- **Nov 27, stop 42, quiet**\nthe stop grace\nStops 41–42") == [2, 4])
    }

    @Test("every cited section of a document of this tree is one of its headings")
    func citedSections() throws {
        let citations = try Self.citations()
        #expect(citations.count > 50, "found only \(citations.count) citations")
        var checked = 0
        for citation in citations {
            guard let document = Self.document(citation.file) else { continue }
            let sections = Self.sections(try Self.text(document))
            checked += 1
            #expect(sections.contains { $0 == citation.section || $0.hasPrefix(citation.section) },
                    "\(citation.at) cites \(citation.file), \"\(citation.section)\", which it does not have")
        }
        #expect(checked > 50)
    }
}
