import ArgumentParser
import Foundation
import Mutations
import Rig
import Records
import Scenario
import System

/// `hil mutants`: the suites measured by the faults they catch (docs/mutations.md).
struct MutantsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mutants",
        abstract: "Measure a suite by the faults it catches: each fault of Mutations/faults built into the computer, the suite run against it.",
        subcommands: [MutantsRunCommand.self, MutantsTestCommand.self, MutantsListCommand.self]
    )
}

/// What every `hil mutants` command shares: the catalogue and which of its faults.
struct MutantsOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The fault catalogue: a folder of *.patch files.", valueName: "dir"))
    var faults = "Mutations/faults"

    @Option(name: .customLong("only"), help: ArgumentHelp(
        "Only the faults whose name contains this text (repeatable).", valueName: "text"))
    var only: [String] = []

    /// The selected faults, their requirements checked against the catalog of `suite`'s folder.
    func load(suite: [String]) throws -> [Fault] {
        let catalog = RequirementCatalog.find(for: suite).flatMap { try? RequirementCatalog.load(contentsOf: $0) }
        do {
            let all = try FaultCatalogue.load(faults, requirements: catalog.map { Set($0.requirements.map(\.id)) })
            return try FaultCatalogue.select(all, only)
        } catch {
            printError("hil mutants: \(error)")
            throw ExitCode(ExitCause.invalidInput.rawValue)
        }
    }
}

/// Options of the two commands that run suites.
struct MutantsSuiteOptions: ParsableArguments {
    @Argument(help: "The suite run against every mutant: scenario files or folders (default: the quick suite).")
    var suite: [String] = ["Scenarios"]

    @Option(name: .customLong("then"), help: ArgumentHelp(
        "A second suite, run against the first one's survivors only (repeatable: its files or folders).",
        discussion: "hil mutants run Scenarios/ --then Scenarios-nightly/ is what the nightly job runs.", valueName: "path"))
    var then: [String] = []

    @Option(help: ArgumentHelp("Where mutations.json, mutations.md and each suite run's results go.", valueName: "dir"))
    var output = "mutants"

    var suites: [[String]] { then.isEmpty ? [suite] : [suite, then] }
}

struct MutantsListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List the faults of the catalogue.")

    @OptionGroup var options: MutantsOptions

    func run() throws {
        for fault in try options.load(suite: ["Scenarios"]) {
            let argued = fault.argued.map { "  [argued \($0.kind.rawValue)]" } ?? ""
            print("\(fault.id)  (\(fault.area); \(fault.requirements.joined(separator: ", ")))\(argued)\n    \(fault.fault)")
        }
    }
}

struct MutantsRunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Build every fault into a copy of the tree, then run the suites against each mutant on a rig.",
        discussion: """
            The copy (--work) is this checkout's files as git sees them, uncommitted changes \
            included; each fault is applied with git apply, hil built in this hil's configuration (release or \
            debug) and kept as <work>/bin/<fault>/hil, and the patch taken back out. Then, on the rig --rig picks \
            (one guest boot for the vm rig), the suite runs against the unchanged computer (the control: it must \
            pass) and against each mutant with hil run --computer <mutant> --max-failures 1; each --then suite runs \
            against the survivors. The phone, the verifier and the rig are always this hil's.

            Writes mutations.json (the format's owner: Records' MutationResults), mutations.md (the table) and each \
            run's results into --output, and prints the table: each fault caught (by which scenario, with its \
            first failure line), survived, or broken (the patch no longer applies, or does not build).

            Exit status: 0 when every fault was caught or its survival is argued in the catalogue; 1 when a survivor \
            is not argued, a fault is broken, or the unchanged computer does not pass the suite; 64 for a catalogue \
            with problems or a tree that does not build; 69 without a usable rig; 125 when the rig broke; 130 when \
            interrupted.
            """)

    @OptionGroup var options: MutantsOptions
    @OptionGroup var suiteOptions: MutantsSuiteOptions
    @OptionGroup var rigOptions: RigOptions

    @Option(help: ArgumentHelp("The copy of the tree mutants are built in (kept between runs: builds are incremental).",
                               discussion: "Not under /tmp or /run: the vm rig's guest reads the mutants from there.",
                               valueName: "dir"))
    var work = ".build-mutants"

    func run() async throws {
        let faults = try options.load(suite: suiteOptions.suite)
        let work = URL(fileURLWithPath: self.work).standardizedFileURL.path
        let tree = SourceTree(source: FileManager.default.currentDirectoryPath, path: work + "/tree")
        let builder = MutantBuilder(tree: tree, configuration: RunCommand.buildConfiguration, bin: work + "/bin")
        print("hil mutants: \(faults.count) fault(s); copying the tree into \(tree.path)"); fflush(nil)
        do {
            let written = try await tree.sync()
            print("hil mutants: \(written) file(s) copied; building the unchanged tree (\(RunCommand.buildConfiguration))"); fflush(nil)
            _ = try await builder.buildControl()
        } catch {
            printError("hil mutants: \(error)")
            throw ExitCode(ExitCause.invalidInput.rawValue)
        }
        for (index, fault) in faults.enumerated() {
            let started = ContinuousClock.now
            switch await builder.build(fault) {
            case .success: print("[\(index + 1)/\(faults.count)] built \(fault.id) (\(MutationRun.seconds(started)))")
            case .failure(let why): print("[\(index + 1)/\(faults.count)] \(fault.id): BROKEN: \(why)")
            }
            fflush(nil)
        }
        if try RigOptions.insideRig() {
            try await MutantsTestCommand.test(faults, bin: builder.bin, suites: suiteOptions)
            return
        }
        var line = [RunCommand.executable, "mutants", "test", "--bin", builder.bin, "--faults", URL(fileURLWithPath: options.faults).standardizedFileURL.path]
        line += options.only.flatMap { ["--only", $0] } + suiteOptions.then.flatMap { ["--then", $0] }
        line += ["--output", suiteOptions.output] + suiteOptions.suite
        try rigOptions.runInRig(output: suiteOptions.output, timeout: .seconds(3600 * 8), commandLine: line)
    }
}

struct MutantsTestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test",
        abstract: "Run the suites against mutants already built by hil mutants run (<work>/bin), on a rig.",
        discussion: "What hil mutants run does after its builds; run it alone to test the same mutants again (a changed suite). Exit status as hil mutants run.")

    @OptionGroup var options: MutantsOptions
    @OptionGroup var suiteOptions: MutantsSuiteOptions
    @OptionGroup var rigOptions: RigOptions

    @Option(help: ArgumentHelp("The built mutants: <bin>/<fault>/hil, and <bin>/control/hil.", valueName: "dir"))
    var bin = ".build-mutants/bin"

    func run() async throws {
        let faults = try options.load(suite: suiteOptions.suite)
        guard try RigOptions.insideRig() else {
            try rigOptions.runInRig(output: suiteOptions.output, timeout: .seconds(3600 * 8))
            return
        }
        try await Self.test(faults, bin: URL(fileURLWithPath: self.bin).standardizedFileURL.path, suites: suiteOptions)
    }

    /// Inside a rig: the control, then the suites against each built mutant; the table, mutations.json and .md.
    static func test(_ faults: [Fault], bin: String, suites suiteOptions: MutantsSuiteOptions) async throws {
        let output = URL(fileURLWithPath: suiteOptions.output).standardizedFileURL.path
        try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        let started = ISO8601DateFormatter().string(from: Date())
        let run = MutationRun(hil: RunCommand.executable, suites: suiteOptions.suites, output: output) { print($0); fflush(nil) }
        do {
            try await run.control(bin + "/control/hil")
        } catch {
            printError("hil mutants: \(error)")
            throw ExitCode(ExitCause.productFailed.rawValue)
        }
        var binaries: [String: Result<String, MutantBuilder.BuildFailure>] = [:]
        for fault in faults {
            binaries[fault.id] = MutantBuilder.built(fault, in: bin)
        }
        let entries = await run.run(faults, binaries: binaries)
        let results = MutationResults(suites: suiteOptions.suites.map { $0.joined(separator: " ") }, build: RunCommand.buildConfiguration,
                                      commit: SourceRevision.probe(executable: RunCommand.executable), startedAt: started, entries: entries)
        let table = MutationTable.markdown(results)
        try results.jsonText.write(toFile: output + "/mutations.json", atomically: true, encoding: .utf8)
        try table.write(toFile: output + "/mutations.md", atomically: true, encoding: .utf8)
        print("\n" + table)
        if !results.unargued.isEmpty || results.entries.contains(where: { $0.outcome == .broken }) {
            throw ExitCode.failure
        }
    }
}
