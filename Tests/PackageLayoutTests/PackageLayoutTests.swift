import Foundation
import HILTestSupport
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

    @Test("the bounds of the split: Runner, PhoneLinks and Bench ≤ 12 dependencies, RunnerTests ≤ 10; test targets")
    func bounds() throws {
        let manifest = try PackageManifest(root: Self.root)
        for (name, bound) in [("Runner", 12), ("PhoneLinks", 12), ("Bench", 12), ("RunnerTests", 10)] {
            let target = try #require(manifest.target(name))
            let count = target.dependencies.count
            #expect(count <= bound, "\(name) has \(count) dependencies, more than \(bound): \(target.dependencies)")
        }
        // Sideways arrows (Bench on Runner, Evidence on PhoneLinks) are ModuleGraphTests' layer check's.
        for module in ["PhoneLinks", "Bench", "Evidence", "ComputerProcess", "Records", "RunContext", "InputCodes", "NetSocket"] {
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
    func benchmarksShareOneRunnerAndOneMedian() async throws {
        let folder = Self.root.appendingPathComponent("Benchmarks")
        let scripts = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".sh") || $0.hasSuffix(".py") }
        #expect(scripts.count >= 10, "\(scripts)")
        for script in scripts {
            let text = try String(contentsOf: folder.appendingPathComponent(script), encoding: .utf8)
            let code = text.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("#") }.joined(separator: "\n")
            #expect(!code.contains("rig exec") && !code.contains("vm exec"), "\(script) starts a guest itself: use bench_run (Benchmarks/lib/in-guest.sh)")
            #expect(!code.contains("statistics.median"), "\(script) takes a median of its own: use Benchmarks/lib/medians.py")
        }
        let (status, said) = try await runCapturing("/usr/bin/python3", [folder.appendingPathComponent("lib/medians.py").path])
        #expect(status == 0 && said.contains("medians: ok"), "python3 Benchmarks/lib/medians.py exited \(status): \(said)")
    }

    /// Where `source` makes a Foundation `Process`: `Process(`, `Foundation.Process(`, `Process.run(`.
    static func foundationProcesses(in source: SwiftSource) -> [String] {
        let pattern = try! NSRegularExpression(pattern: #"(?<!\w)Process(?:\s*\(|\.run\s*\(|\.launchedProcess)"#)
        return source.code.split(separator: "\n", omittingEmptySubsequences: false).enumerated().compactMap { number, line in
            let text = String(line)
            return pattern.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) == nil ? nil : "\(source.path):\(number + 1)"
        }
    }

    @Test("no Foundation Process in Tests: a child is spawned by ChildProcess (HILTestSupport's runCapturing, runSeparating)")
    func noFoundationProcess() async throws {
        let files = try await ModuleGraphTests.index.value().sources.values.joined().filter { $0.path.hasPrefix("Tests/") }
        #expect(files.count > 100)
        let found = files.flatMap(Self.foundationProcesses(in:))
        #expect(found.isEmpty, """
            Foundation's Process in \(found.joined(separator: ", ")): spawn through runCapturing or runSeparating \
            (HILTestSupport) or ChildProcess, whose child gets a clean signal mask and whose exit no thread blocks on
            """)
        #expect(Self.foundationProcesses(in: SwiftSource(path: "A.swift", text: "let p = Process()\nlet q = Foundation.Process()\n"))
                == ["A.swift:1", "A.swift:2"])
        #expect(Self.foundationProcesses(in: SwiftSource(path: "B.swift", text: "let p = try ChildProcess.run(\"x\") // Process()\n"))
                .isEmpty)
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
