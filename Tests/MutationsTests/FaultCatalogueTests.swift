import Foundation
import HILTestSupport
import Mutations
import Processes
import Records
import Scenario
import Testing

/// The fault catalogue (Mutations/faults) as the runner reads it, and the shipped catalogue itself: every fault's
/// header complete, its requirements in the suites' catalog, its patch changing the computer's code only and applying
/// to this tree, and every area issue 51 asks for covered.
@Suite("Mutations: the fault catalogue")
struct FaultCatalogueTests {
    static let folder = packageRoot.appendingPathComponent("Mutations/faults").path

    @Test("the shipped catalogue reads whole: at least 30 faults, every area and R1–R12 covered")
    func shipped() throws {
        let catalog = try RequirementCatalog.load(contentsOf: packageRoot.appendingPathComponent("Scenarios/requirements.json").path)
        let faults = try FaultCatalogue.load(Self.folder, requirements: Set(catalog.requirements.map(\.id)))
        #expect(faults.count >= 30)
        #expect(Set(faults.map(\.area)) == Set(Fault.areas), "areas without a fault: \(Set(Fault.areas).subtracting(faults.map(\.area)).sorted())")
        let groups = Set(faults.flatMap(\.requirements).compactMap { id -> Int? in
            guard id.hasPrefix("R"), let dot = id.firstIndex(of: ".") else { return nil }
            return Int(id.dropFirst().prefix(upTo: dot))
        })
        #expect(groups.isSuperset(of: 1...12), "requirement groups without a fault: \(Set(1...12).subtracting(groups).sorted())")
    }

    @Test("every patch applies to this tree (git apply --check), so a changed source shows here, not in a nightly run")
    func patchesApply() async throws {
        let faults = try FaultCatalogue.load(Self.folder, requirements: nil)
        for fault in faults {
            let output = try await ChildProcess.run("git", arguments: ["apply", "--check", fault.path], workingDirectory: packageRoot.path,
                                                    errors: .joined, timeout: .seconds(60))
            #expect(output.succeeded, "\(fault.id) no longer applies: \(output.text) — make the patch again against the changed code")
        }
    }

    @Test("a fault file's problems are named with the file and the line")
    func problems() throws {
        let folder = try temporaryFolder()
        func write(_ name: String, _ text: String) throws { try text.write(toFile: folder + "/" + name, atomically: true, encoding: .utf8) }
        let diff = "diff --git a/Sources/Peripheral/X.swift b/Sources/Peripheral/X.swift\n--- a/Sources/Peripheral/X.swift\n+++ b/Sources/Peripheral/X.swift\n"
        try write("no-area.patch", "Fault: x\nRequirements: R1.2\nWhy realistic: y\n\n" + diff)
        try write("bad-area.patch", "Fault: x\nArea: cosmic-rays\nRequirements: R1.2\nWhy realistic: y\n\n" + diff)
        try write("phone-side.patch", "Fault: x\nArea: mapping\nRequirements: R1.2\nWhy realistic: y\n\ndiff --git a/Sources/GestureModel/G.swift b/Sources/GestureModel/G.swift\n")
        try write("argued.patch", "Fault: x\nArea: mapping\nRequirements: R99.1\nWhy realistic: y\nArgued: maybe\n\n" + diff)
        try write("no-diff.patch", "Fault: x\nArea: mapping\nRequirements: R1.2\nWhy realistic: y\n")
        do {
            _ = try FaultCatalogue.load(folder, requirements: ["R1.2"])
            Issue.record("a broken catalogue was read")
        } catch {
            let text = "\(error)"
            #expect(text.contains("no-area.patch:1: no Area: header"))
            #expect(text.contains("bad-area.patch: Area cosmic-rays is none of mapping"))
            #expect(text.contains("phone-side.patch: changes Sources/GestureModel/G.swift, which is not the computer's code"))
            #expect(text.contains("argued.patch: Argued must be `equivalent: why` or `untestable: why`"))
            #expect(text.contains("no-diff.patch: no `diff --git` after the header"))
        }
        try FileManager.default.removeItem(atPath: folder)
    }

    @Test("a fault read whole, and --only selects by name")
    func reads() throws {
        let folder = try temporaryFolder()
        try """
            Fault: every 50th move lost
            Area: mapping
            Requirements: R1.2, iPad:drag
            Why realistic: an off-by-one
            Argued: untestable: the rig cannot send fifty moves in one frame, which this needs

            diff --git a/Sources/CommandMapping/CommandMapper.swift b/Sources/CommandMapping/CommandMapper.swift
            """.write(toFile: folder + "/mapping-lost.patch", atomically: true, encoding: .utf8)
        let faults = try FaultCatalogue.load(folder, requirements: ["R1.2", "iPad:drag"])
        #expect(faults.map(\.id) == ["mapping-lost"])
        #expect(faults[0].requirements == ["R1.2", "iPad:drag"])
        #expect(faults[0].files == ["Sources/CommandMapping/CommandMapper.swift"])
        #expect(faults[0].argued == MutationResults.Argued(kind: .untestable, why: "the rig cannot send fifty moves in one frame, which this needs"))
        #expect(try FaultCatalogue.select(faults, ["lost"]).count == 1)
        #expect(throws: MutationError.self) { try FaultCatalogue.select(faults, ["nosuch"]) }
        try FileManager.default.removeItem(atPath: folder)
    }
}
