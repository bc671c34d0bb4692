import Foundation
import Testing

/// The fast command (`HIL_TESTS=unit swift test`, docs/developing.md) leaves out the rig test targets, so every suite
/// that needs the rig must live in one, and nothing else may. Checked on the test sources, so the command cannot rot
/// silently: a rig suite in a unit target, a unit suite in a rig target, a tag without the name or the reverse fail here.
@Suite("Test conventions: rig suites live in the rig test targets, tagged and named, and nothing else does")
struct TestConventionsTests {
    struct SuiteDeclaration {
        var file: String
        var name: String
        var tagged: Bool
        var needsRig: Bool
        /// It, or one of its tests, runs only inside the shared guest (`.inSharedGuest`, or enabled only in a rig).
        var runsInSharedGuest = false
    }

    /// Markers of a file whose suites need the rig: they boot a guest or run only inside one.
    static let rigMarkers = ["RigGuest.run(", "RigGuest.failure(", "RigGuest.isInsideRig", "\"vm\", \"exec\""]

    static func suites() throws -> [SuiteDeclaration] {
        let root = packageRoot.appendingPathComponent("Tests").path
        let files = try FileManager.default.subpathsOfDirectory(atPath: root).filter { $0.hasSuffix(".swift") }
        let pattern = try NSRegularExpression(pattern: #"@Suite\((.*?)\)\s*(?:///[^\n]*\n\s*)*(?:struct|final class|enum) (\w+)"#,
                                              options: [.dotMatchesLineSeparators])
        var found: [SuiteDeclaration] = []
        for file in files where !file.hasPrefix("HILTestSupport/") && !file.hasSuffix("TestConventionsTests.swift") {
            let text = try String(contentsOfFile: root + "/" + file, encoding: .utf8)
            let needsRig = file.hasPrefix("VMRigIntegrationTests/") || rigMarkers.contains { text.contains($0) }
            let range = NSRange(text.startIndex..., in: text)
            let matches = pattern.matches(in: text, range: range)
            for (index, match) in matches.enumerated() {
                guard let arguments = Range(match.range(at: 1), in: text), let name = Range(match.range(at: 2), in: text) else { continue }
                // The suite's body: up to the next suite in the file.
                let end = index + 1 < matches.count ? matches[index + 1].range.location : range.length
                let body = Range(NSRange(location: match.range.location, length: end - match.range.location), in: text).map { text[$0] } ?? ""
                let shared = text[arguments].contains("enabled(if: RigGuest.isInsideRig,") || body.contains(".inSharedGuest")
                found.append(SuiteDeclaration(file: file, name: String(text[name]), tagged: text[arguments].contains(".tags(.rig)"),
                                              needsRig: needsRig, runsInSharedGuest: shared))
            }
        }
        return found
    }

    /// The targets Package.swift's `rigTestTargets` declares (left out by `HIL_TESTS=unit`).
    static func rigTargets() throws -> Set<String> {
        let manifest = try String(contentsOf: packageRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
        guard let start = manifest.range(of: "let rigTestTargets"), let end = manifest[start.upperBound...].range(of: "\n]\n") else { return [] }
        let names = try NSRegularExpression(pattern: #"name: "(\w+)""#)
        let block = String(manifest[start.upperBound..<end.lowerBound])
        return Set(names.matches(in: block, range: NSRange(block.startIndex..., in: block)).compactMap {
            Range($0.range(at: 1), in: block).map { String(block[$0]) }
        })
    }

    @Test("every suite that boots or needs the rig is in a rig test target, tagged .rig and named …OnRig; no other suite is")
    func tagsNamesAndTargets() throws {
        let suites = try Self.suites()
        let rigTargets = try Self.rigTargets()
        #expect(rigTargets == ["EvdevRigTests", "PeripheralRigTests", "RadioRigTests", "VMRigIntegrationTests"], "\(rigTargets)")
        #expect(suites.count > 40, "found only \(suites.count) suites: the scan is broken")
        #expect(suites.contains { $0.tagged }, "no rig suite found: the scan is broken")
        for suite in suites {
            let named = suite.name.hasSuffix("OnRig")
            let inRigTarget = rigTargets.contains(String(suite.file.prefix { $0 != "/" }))
            #expect(suite.tagged == named, "\(suite.file): \(suite.name) is \(suite.tagged ? "tagged .rig but not named …OnRig" : "named …OnRig but not tagged .rig")")
            #expect(suite.tagged == inRigTarget, "\(suite.file): \(suite.name) is \(inRigTarget ? "in a rig test target but not a rig suite" : "a rig suite outside the rig test targets: HIL_TESTS=unit would run it")")
            if suite.needsRig {
                #expect(suite.tagged, "\(suite.file): \(suite.name) needs the rig (its file boots or runs only inside one) but is not tagged .rig")
            }
        }
    }

    @Test("every suite that runs only inside the shared guest is in InRigSuitesOnRig's list, so it runs somewhere")
    func sharedGuestSuitesListed() throws {
        let listing = try String(contentsOf: packageRoot.appendingPathComponent("Tests/VMRigIntegrationTests/InRigSuitesOnRig.swift"), encoding: .utf8)
        let shared = try Self.suites().filter(\.runsInSharedGuest)
        #expect(shared.count >= 7, "found only \(shared.map(\.name)): the scan is broken")
        for suite in shared {
            #expect(listing.contains("(\"\(suite.name)\","),
                    "\(suite.file): \(suite.name) runs only inside the shared guest, but InRigSuitesOnRig.suites does not list it: it would never run")
        }
    }
}
