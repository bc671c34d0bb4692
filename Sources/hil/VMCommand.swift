import ArgumentParser
import Foundation
import Rig

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
            The guest boots Debian's kernel with this host's root filesystem (read-only, with a writable overlay),
            so the command sees the same programs and project files; only /run is the guest's own, and
            what the guest writes stays in the guest (results come back through $HIL_SHARE).
            Inside, dbus-daemon, btvirt (two LE controllers) and bluetoothd are up and both adapters powered
            before the command starts. The guest's console streams here; the exit status is the command's.

            Example: hil vm exec -- sh -c 'ls -l /dev/uinput; bluetoothctl list'

            Exit status: the command's; 124 on timeout; 125 when the rig failed (no boot, adapters never ready);
            130 when interrupted.
            """
    )

    @Option(help: "The vm rig's name in the Rigs/ folder.")
    var rig: String = "vm"

    @Option(help: ArgumentHelp("Folder of rig files.", valueName: "dir"))
    var rigs: String?

    @Option(help: "Stop the guest after this many seconds.")
    var timeout: Int = 1800

    @Flag(help: "Print how long the image, the boot and the command took.")
    var timing = false

    @Flag(help: "Keep the guest's share folder (console log, BlueZ logs) even when the command succeeds.")
    var keep = false

    @Argument(parsing: .postTerminator, help: "The command and its arguments, after --.")
    var command: [String] = []

    func validate() throws {
        if command.isEmpty { throw ValidationError("give the command after --, e.g. hil vm exec -- bluetoothctl list") }
        if timeout <= 0 { throw ValidationError("--timeout must be positive") }
    }

    func run() async throws {
        do {
            let code = try execute()
            if code != 0 { throw ExitCode(code) }
        } catch let error as RigError {
            printError("hil vm exec: \(error)")
            switch error.code {
            case .timeout: throw ExitCode(124)
            case .interrupted: throw ExitCode(130)
            default: throw ExitCode(125)
            }
        }
    }

    private func execute() throws -> Int32 {
        guard let folder = rigs ?? RigCatalog.locate() else {
            throw ValidationError("cannot find the Rigs/ folder; run from the project folder, or pass --rigs DIR")
        }
        let catalog = try RigCatalog(directory: folder)
        let definition = try catalog.rig(named: rig)
        guard definition.kind == .vm else {
            throw ValidationError("rig \(rig) is of kind \(definition.kind.rawValue); hil vm exec needs a vm rig")
        }
        let facts = HostFacts.probe()
        let assessment = RigAssessment(rig: definition, facts: facts)
        if let failure = assessment.failures.first {
            throw RigError(.missingTool, "rig \(definition.name) cannot run here: \(failure.finding)", hint: failure.fix)
        }

        let image = try VMImage.ensure(rigsDirectory: folder)
        if timing {
            printError("hil vm exec: image \(image.built ? "built" : "cached") in \(seconds(image.elapsed)) (\(image.directory))")
        }
        let runner = VMRunner(
            rig: definition, image: image, qemu: facts.tools["qemu-system-x86_64"]!, timeout: .seconds(timeout))
        let interrupts = InterruptForwarder { runner.interrupt() }
        defer { interrupts.cancel() }

        var environment = ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"]
        for (name, value) in ProcessInfo.processInfo.environment where name.hasPrefix("HIL_") {
            environment[name] = value
        }
        let job = VMJob(
            command: command, workingDirectory: FileManager.default.currentDirectoryPath, environment: environment)
        let result = try runner.run(job, keepShare: keep) { text in
            FileHandle.standardOutput.write(Data(text.utf8))
        }
        if timing {
            let ready = result.readyAfter.map(seconds) ?? "never"
            printError("hil vm exec: adapters ready after \(ready), command done after \(seconds(result.totalAfter)), exit status \(result.exitCode)")
        }
        if keep || result.exitCode != 0 {
            printError("hil vm exec: guest console and BlueZ logs in \(result.shareDirectory)")
        }
        return result.exitCode
    }

    private func seconds(_ duration: Duration) -> String {
        String(format: "%.1f s", Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18)
    }
}
