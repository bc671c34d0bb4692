import ArgumentParser
import Foundation
import Rig
import RigControl

struct VMCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vm",
        abstract: "The vm rig: a QEMU guest with Bluetooth and uinput, for hosts whose kernel has neither.",
        subcommands: [VMExecCommand.self]
    )
}

/// Runs any command inside a fresh vm rig with both adapters ready.
struct VMExecCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "exec",
        abstract: "Run a command inside a fresh vm rig guest, with hci0, hci1 and /dev/uinput ready.",
        discussion: """
            The guest boots Debian's kernel with this host's root filesystem (read-only, with a writable \
            overlay), so the command sees the same programs and project files; only /run is the guest's own, and \
            what the guest writes stays in the guest (results come back through $HIL_SHARE). Inside, \
            dbus-daemon, btvirt (two LE controllers) and bluetoothd are up and both adapters powered before the \
            command starts. The guest's console streams here; the exit status is the command's.

            --rig names a vm rig of the rig files (auto: the one named vm).

            Example: hil vm exec -- sh -c 'ls -l /dev/uinput; bluetoothctl list'

            Exit status: the command's; 64 when no vm rig has the name --rig gives; 69 when the rig cannot run \
            here or did not come up (no boot, adapters never ready); 124 on timeout; 125 when the guest stopped \
            under the command; 130 when interrupted.
            """
    )

    @OptionGroup var rigOptions: RigOptions

    // Before the job's options: the usage line ends with `-- <command>`.
    @Flag(help: "Start nothing in the guest (no bus, btvirt or bluetoothd): for testing rig bring-up code.")
    var bare = false

    @OptionGroup var job: JobOptions

    func validate() throws { try job.validate() }

    func run() async throws {
        let catalog = try rigOptions.catalog()
        // --rig auto here means the rig named vm.
        let rig = rigOptions.rig == "auto" ? "vm" : rigOptions.rig
        let definition: RigDefinition
        do {
            definition = try catalog.rig(named: rig, of: .vm)
        } catch {
            throw RigExecution.fail(error)
        }
        guard definition.kind == .vm else {
            throw ValidationError("rig \(rig) is of kind \(definition.kind.rawValue); hil vm exec needs a vm rig (try hil rig exec)")
        }
        try RigExecution.run(definition, catalog: catalog, facts: HostFacts.probe(), job: job, bare: bare)
    }
}

struct RigCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rig",
        abstract: "Run commands with a rig up: hardware, virtual or vm, chosen automatically or by name.",
        subcommands: [RigExecCommand.self, RigMainConfCommand.self]
    )
}

/// Runs a command with the rig `--rig` picks brought up.
struct RigExecCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "exec",
        abstract: "Run a command with a rig up; --rig auto picks hardware, else virtual, else vm, and says why.",
        discussion: """
            vm: the command runs in a fresh guest (as hil vm exec). virtual: btvirt makes two controllers here \
            (with a private bus and bluetoothd when the rig file says so), the command runs here, the rig is \
            taken down after. hardware: the command runs here on the system's bluetoothd.

            The command finds the rig in HIL_RIG, HIL_PERIPHERAL_ADAPTER and HIL_CENTRAL_ADAPTER (and \
            DBUS_SYSTEM_BUS_ADDRESS for a private bus).

            Exit status: the command's; 64 when no rig has the name --rig gives; 69 when the rig cannot run \
            here or did not come up; 124 on timeout; 125 when the rig broke under the command; 130 when \
            interrupted.
            """
    )

    @OptionGroup var rigOptions: RigOptions

    @OptionGroup var job: JobOptions

    func validate() throws { try job.validate() }

    func run() async throws {
        let catalog = try rigOptions.catalog()
        let facts = HostFacts.probe()
        let chosen = try RigExecution.choose(rigOptions.rig, from: catalog, facts: facts)
        try RigExecution.run(chosen, catalog: catalog, facts: facts, job: job, bare: false)
    }
}

/// What `hil rig exec` and `hil vm exec` take besides the rig (`RigOptions`).
struct JobOptions: ParsableArguments {
    static let timeoutRange = OptionRange<DurationArgument>("--timeout", atLeast: .seconds(1))

    @Option(parsing: .unconditional, help: DurationArgument.help("Stop the command after this long (exit status 124).", range: timeoutRange))
    var timeout = DurationArgument(.seconds(1800))

    @Flag(help: "Print how long the image, the rig and the command took.")
    var timing = false

    @Flag(help: "Keep the vm guest's share folder (console log, BlueZ logs) even when the command succeeds.")
    var keep = false

    @Option(help: ArgumentHelp(
        "vm rigs: copy what the command wrote to $HIL_SHARE/results, and the guest's BlueZ logs, here after it (whatever its status).",
        valueName: "dir"))
    var output: String?

    @Argument(parsing: .postTerminator, help: "The command and its arguments, after --.")
    var command: [String] = []

    func validate() throws {
        if command.isEmpty { throw ValidationError("give the command after --, e.g. -- bluetoothctl list") }
        try Self.timeoutRange.check(timeout)
    }
}

/// Runs a job on a rig with Ctrl-C forwarded, the guest console on stdout, and the exit status passed on.
enum RigExecution {
    static func run(_ rig: RigDefinition, catalog: RigCatalog, facts: HostFacts, job: JobOptions, bare: Bool) throws {
        try run(rig, catalog: catalog, facts: facts, command: job.command,
                options: .init(timeout: job.timeout.duration, timing: job.timing, keep: job.keep, bare: bare,
                               resultsDestination: job.output.map { ($0 as NSString).expandingTildeInPath }))
    }

    static func run(_ rig: RigDefinition, catalog: RigCatalog, facts: HostFacts, command: [String],
                    options: RigJobRunner.Options) throws
    {
        let runner = RigJobRunner(
            rig: rig, rigsDirectory: catalog.directory, facts: facts, options: options,
            report: { printError("hil: \($0)") })
        let interrupts = InterruptForwarder { runner.interrupt() }
        defer { interrupts.cancel() }
        let status: Int32
        do {
            status = try runner.run(command) { text in FileHandle.standardOutput.write(Data(text.utf8)) }
        } catch {
            throw fail(error)
        }
        if status != 0 { throw ExitCode(status) }
    }

    /// The rig `--rig` names or `auto` picks, after saying which and why on standard error.
    static func choose(_ requested: String, from catalog: RigCatalog, facts: HostFacts) throws -> RigDefinition {
        do {
            let choice = try RigSelector.choose(requested, from: catalog, facts: facts)
            printError("hil: \(choice.reason)")
            return choice.rig
        } catch {
            throw fail(error)
        }
    }

    /// Prints a rig error and turns it into the documented exit status.
    static func fail(_ error: RigError) -> ExitCode {
        printError("hil: \(error)")
        return error.exitStatus.exit
    }
}
