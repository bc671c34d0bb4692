import ArgumentParser
import Foundation
import Lab
import System
import Waiting

/// `hil lab`: many boxes as labgrid places (Rigs/README.md, "A lab on labgrid").
struct LabCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lab",
        abstract: "Run the suite on several boxes reserved through a labgrid coordinator, or show the lab's places.",
        subcommands: [LabRunCommand.self, LabStatusCommand.self]
    )
}

/// Options every `hil lab` command shares.
struct LabOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The labgrid coordinator (labgrid 26's gRPC one).",
                               discussion: "Default: $LG_COORDINATOR, else 127.0.0.1:20408.", valueName: "host:port"))
    var coordinator: String?

    @Option(help: ArgumentHelp("labgrid-client to run.",
                               discussion: "Default: .venv-labgrid/bin/labgrid-client (made by Rigs/labgrid/venv.sh), else PATH's.",
                               valueName: "path"))
    var labgridClient: String?

    /// `--coordinator`, else `LG_COORDINATOR`, else labgrid's default port here.
    var coordinatorAddress: String {
        coordinator ?? ProcessInfo.processInfo.environment["LG_COORDINATOR"] ?? "127.0.0.1:20408"
    }

    func labgrid() throws -> Labgrid {
        do {
            return try Labgrid(client: labgridClient, coordinator: coordinatorAddress)
        } catch {
            printError("hil lab: \(error)")
            throw ExitCause.noUsableRig.exit
        }
    }
}

struct LabRunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Reserve places, check each box, run a shard of the suite on each over SSH, merge, give the places back.",
        discussion: """
            Reserves --places places whose tags include every --tags (one labgrid reservation each), locks them, and \
            runs `hil doctor` on each box over SSH: a box that fails it is reported, given back and left out. Each \
            healthy box then runs `hil run --shard i/N` of the suite in its checkout (the HILRig resource's \
            `checkout`); every argument hil lab does not know goes to that hil run, scenario paths included (paths \
            on the box, relative to its checkout). Progress lines come prefixed with the place. At the end each \
            box's output folder is fetched with scp into --output/<place>/results and merged into one results.json, \
            junit.xml, report.html and summary.md there (each shard's environment names its place), with lab.json \
            saying what became of each box.

            The places are unlocked and the reservations cancelled on every way out: done, failed, an error, \
            Ctrl-C or SIGTERM (each box's hil run is interrupted first and its results so far are fetched), and \
            --timeout. Only SIGKILL cannot be answered: `hil lab status` then shows the places still held, and \
            `labgrid-client -p PLACE unlock` frees them.

            Exit status as hil run: 0 when every scenario passed, 1 when one did not; 69 when no box could run \
            (labgrid missing or failing, no free place, no healthy box); 125 when a box's results could not be \
            fetched or merged, or a place not given back; 130 when interrupted; 124 over --timeout.
            """
    )

    @OptionGroup var lab: LabOptions

    /// The ranges of its number options (`OptionRange`: in their help, and the check that refuses a value outside).
    static let ranges = (
        places: OptionRange<Int>("--places", atLeast: 1),
        reserveTimeout: OptionRange<DurationArgument>("--reserve-timeout", atLeast: .seconds(1)),
        timeout: OptionRange<DurationArgument>("--timeout", atLeast: .seconds(1)))

    @Option(parsing: .unconditional, help: ranges.places.help("How many places (boxes) to run on."))
    var places: Int = 2

    @Option(help: ArgumentHelp("Tags a place must have, key=value (repeatable).", valueName: "key=value"))
    var tags: [String] = ["kind=hil"]

    @Option(help: ArgumentHelp("Local folder for each box's results and the merged report.", valueName: "dir"))
    var output: String = "lab-results"

    @Option(help: ArgumentHelp("An ssh_config file for every ssh and scp to the boxes (keys, known hosts).", valueName: "file"))
    var sshConfig: String?

    @Option(parsing: .unconditional, help: DurationArgument.help("How long to wait for the places to be free.", range: ranges.reserveTimeout))
    var reserveTimeout = DurationArgument(.seconds(600))

    @Option(parsing: .unconditional, help: DurationArgument.help(
        "Stop the whole run after this long (exit status 124; places given back).", range: ranges.timeout))
    var timeout: DurationArgument?

    @Argument(parsing: .allUnrecognized, help: ArgumentHelp("hil run's options and scenario paths, for every box.", valueName: "hil run arguments"))
    var runArguments: [String] = []

    func validate() throws {
        try Self.ranges.places.check(places)
        try Self.ranges.reserveTimeout.check(reserveTimeout)
        for tag in tags where !tag.contains("=") { throw ValidationError("--tags \(tag): expected key=value") }
        if runArguments.contains(where: { $0 == "--shard" || $0.hasPrefix("--shard=") }) {
            throw ValidationError("hil lab run gives each box its --shard itself: leave it out")
        }
        if let timeout { try Self.ranges.timeout.check(timeout) }
    }

    func run() async throws {
        let labgrid = try lab.labgrid()
        let output = URL(fileURLWithPath: output).standardizedFileURL.path
        let settings = LabRun.Settings(
            places: places, tags: tags, runArguments: runArguments.isEmpty ? ["Scenarios"] : runArguments, output: output,
            sshConfig: sshConfig.map { URL(fileURLWithPath: $0).standardizedFileURL.path },
            reserveTimeout: reserveTimeout.duration, timeout: timeout?.duration)
        let run = LabRun(labgrid: labgrid, settings: settings) { line in
            print(line)
            fflush(nil)
        }
        let interrupts = InterruptForwarder { run.requestStop(.interrupted) }
        defer { interrupts.cancel() }
        let limit = timeout.map { timeout in
            Pace.after(timeout.duration) {
                printError("hil lab: the run took longer than \(timeout) (--timeout); stopping")
                run.requestStop(.timedOut)
            }
        }
        let outcome = await run.execute()
        limit?.cancel()
        if outcome.status != 0 { throw ExitCode(outcome.status) }
    }
}

struct LabStatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "List the coordinator's places: tags, who holds each, and each box's last health check.")

    @OptionGroup var lab: LabOptions

    func run() async throws {
        let labgrid = try lab.labgrid()
        let places: [LabPlace]
        do {
            places = try await labgrid.places()
        } catch {
            printError("hil lab status: \(error)")
            throw ExitCause.noUsableRig.exit
        }
        print(LabStatusTable.render(places, coordinator: lab.coordinatorAddress))
    }
}
