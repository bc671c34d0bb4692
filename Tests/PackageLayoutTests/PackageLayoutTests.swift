import Foundation
import Testing

/// The house rules that the layout of the code must keep, read from Package.swift and the sources: an arrow in the
/// module graph for every import and an import for every arrow, the bounds issue 48 set, files of at most 400 lines,
/// and waits on events rather than polls where an event exists.
@Suite("The package's layout: the module graph, file sizes, polling")
struct PackageLayoutTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardizedFileURL

    /// Dependencies a target declares without importing them, each with its reason.
    static let buildOnly: [String: Set<String>] = [
        // The rig tests run the built `hil`: the dependency makes `swift test` build it.
        "VMRigIntegrationTests": ["hil"],
    ]

    @Test("every declared dependency is imported, and every module of this package that is imported is declared")
    func arrowsAreImports() throws {
        let manifest = try PackageManifest(root: Self.root)
        #expect(manifest.targets.count >= 40, "read only \(manifest.targets.map(\.name)) from Package.swift")
        let ours = Set(manifest.targets.map(\.name))
        for target in manifest.targets {
            let imports = PackageManifest.imports(of: target)
            let unused = Set(target.dependencies).subtracting(imports).subtracting(Self.buildOnly[target.name] ?? [])
            #expect(unused.isEmpty, "\(target.name) depends on \(unused.sorted()) without importing them: remove them from Package.swift")
            let undeclared = imports.intersection(ours).subtracting(target.dependencies).subtracting([target.name])
            #expect(undeclared.isEmpty, "\(target.name) imports \(undeclared.sorted()) without declaring them in Package.swift")
        }
    }

    @Test("the bounds of the split: Runner and PhoneLinks ≤ 12 dependencies, RunnerTests ≤ 10; no sideways arrows")
    func bounds() throws {
        let manifest = try PackageManifest(root: Self.root)
        let runner = try #require(manifest.target("Runner")), links = try #require(manifest.target("PhoneLinks"))
        let runnerTests = try #require(manifest.target("RunnerTests"))
        #expect(runner.dependencies.count <= 12, "Runner: \(runner.dependencies)")
        #expect(links.dependencies.count <= 12, "PhoneLinks: \(links.dependencies)")
        #expect(runnerTests.dependencies.count <= 10, "RunnerTests: \(runnerTests.dependencies)")
        #expect(try !#require(manifest.target("Bench")).dependencies.contains("Runner"))
        #expect(try !#require(manifest.target("Evidence")).dependencies.contains("PhoneLinks"))
        for module in ["PhoneLinks", "Bench", "Evidence", "ComputerProcess"] {
            #expect(manifest.target(module + "Tests") != nil, "\(module) has no test target of its own")
        }
    }

    @Test("docs/architecture.md's table of modules says what Package.swift says each may import")
    func architectureTable() throws {
        let manifest = try PackageManifest(root: Self.root)
        let text = try String(contentsOf: Self.root.appendingPathComponent("docs/architecture.md"), encoding: .utf8)
        var checked = 0
        for line in text.split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 4, let target = manifest.target(cells[1].trimmingCharacters(in: CharacterSet(charactersIn: "`"))),
                  !target.isTest, target.name != "hil" else { continue }
            let documented = cells[cells.count - 2] == "—" ? [] : cells[cells.count - 2].components(separatedBy: ", ")
            #expect(Set(documented) == Set(target.dependencies),
                    "docs/architecture.md says \(target.name) may import \(documented.sorted()); Package.swift says \(target.dependencies.sorted())")
            checked += 1
        }
        #expect(checked >= 30, "only \(checked) rows of docs/architecture.md's table were read")
    }

    @Test("Benchmarks/: one way to run a job in the guest (lib/in-guest.sh) and one median (lib/medians.py, which checks itself)")
    func benchmarksShareOneRunnerAndOneMedian() throws {
        let folder = Self.root.appendingPathComponent("Benchmarks")
        let scripts = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".sh") || $0.hasSuffix(".py") }
        #expect(scripts.count >= 10, "\(scripts)")
        for script in scripts {
            let text = try String(contentsOf: folder.appendingPathComponent(script), encoding: .utf8)
            let code = text.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("#") }.joined(separator: "\n")
            #expect(!code.contains("rig exec") && !code.contains("vm exec"), "\(script) starts a guest itself: use bench_run (Benchmarks/lib/in-guest.sh)")
            #expect(!code.contains("statistics.median"), "\(script) takes a median of its own: use Benchmarks/lib/medians.py")
        }
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        python.arguments = [folder.appendingPathComponent("lib/medians.py").path]
        let output = Pipe()
        python.standardOutput = output
        try python.run()
        python.waitUntilExit()
        let said = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(python.terminationStatus == 0 && said.contains("medians: ok"), "\(said)")
    }

    @Test("no Swift file over 400 lines")
    func fileSizes() {
        let files = ["Sources", "Tests"].flatMap { PackageManifest.swiftFiles(under: Self.root.appendingPathComponent($0)) }
        #expect(files.count > 100)
        for file in files {
            let lines = ((try? String(contentsOf: file, encoding: .utf8)) ?? "").split(separator: "\n", omittingEmptySubsequences: false).count
            #expect(lines <= 401, "\(file.path): \(lines) lines")
        }
    }

    @Test("at most 8 Poll call sites in Sources, none in the verdict path (ScenarioDriver, Verifier)")
    func pollSites() {
        var sites: [String] = []
        for file in PackageManifest.swiftFiles(under: Self.root.appendingPathComponent("Sources")) {
            let text = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
            for line in text.split(separator: "\n") where line.contains("Poll.") && !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
                sites.append(file.path)
            }
        }
        #expect(sites.count <= 8, "\(sites.count) Poll call sites: \(sites)")
        #expect(!sites.contains { $0.contains("/Sources/ScenarioDriver/") || $0.contains("/Sources/Verifier/") }, "\(sites)")
    }
}
