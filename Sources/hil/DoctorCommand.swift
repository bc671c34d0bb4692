import ArgumentParser
import Rig

/// Which rigs can run on this host, and for each one that cannot, exactly why and what to do.
struct DoctorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Check which rigs can run on this host, and what to do for those that cannot.",
        discussion: """
            Exit status 0 when at least one rig can run here (with --rig NAME: when that rig can), 1 otherwise.
            """
    )

    @OptionGroup var options: RigOptions

    func run() async throws {
        let catalog = try options.catalog()
        if options.rig != "auto" {
            do {
                _ = try catalog.rig(named: options.rig)
            } catch {
                throw RigExecution.fail(error)
            }
        }
        let facts = HostFacts.probe()
        print("host: kernel \(facts.kernelRelease), BlueZ \(facts.bluetoothdVersion ?? "not installed"), \(facts.isRoot ? "root" : "not root")")
        print("  Bluetooth in the kernel: \(facts.kernelBluetooth ? "yes" : facts.bluetoothModuleAvailable ? "module on disk, not loaded" : "no")")
        let adapters = facts.adapters.map { "\($0.name)\($0.isHardware ? "" : " (virtual)")" }
        print("  adapters: \(adapters.isEmpty ? "none" : adapters.joined(separator: ", "))")
        print("  hci_vhci: \(facts.vhci ? "loaded" : facts.vhciModuleAvailable ? "module on disk, not loaded" : "no")")
        print("  uinput: \(facts.uinputPath.map { "\($0)\(facts.uinputWritable ? "" : " (not writable)")" } ?? (facts.uinputModuleAvailable ? "module on disk, not loaded" : "no"))")
        print("  bluetoothd: \(facts.bluetoothdRunning ? "running" : "not running")")
        do {
            let inside = try RigEnvironment.current()
            if inside.isInsideRig {
                print("  lanes (scenarios hil run runs at once): \(inside.lanes.map(\.description).joined(separator: ", "))")
                DoctorNetwork.insideRig(inside).forEach { print($0) }
            } else {
                print(DoctorNetwork.outsideRig())
            }
        } catch {
            print("  the rig's HIL_* variables: \(error)")
        }
        print("rigs (\(catalog.directory)):")
        var runnable = 0
        for kind in RigSelector.preference {
            for rig in catalog.rigs where rig.kind == kind && (options.rig == "auto" || rig.name == options.rig) {
                let assessment = RigAssessment(rig: rig, facts: facts)
                if assessment.canRun { runnable += 1 }
                print("  \(rig.name): \(assessment.canRun ? "can run" : "cannot run")")
                for check in assessment.checks {
                    print("    \(check.passed ? "ok " : "NO ") \(check.finding)")
                    if let fix = check.fix { print("        → \(fix)") }
                }
            }
        }
        if options.rig == "auto" {
            do {
                let choice = try RigSelector.choose("auto", from: catalog, facts: facts)
                print("--rig auto picks \(choice.reason)")
            } catch {
                print("--rig auto: \(error)")
            }
        }
        if runnable == 0 { throw ExitCode.failure }
    }
}
