import ArgumentParser
import Rig
import RigControl
import System

/// Which rigs can run on this host, and for each one that cannot, exactly why and what to do; whether the vm rig's
/// image is built; what works here without a rig.
struct DoctorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Check which rigs can run on this host, and what to do for those that cannot.",
        discussion: """
            Lists this host's kernel, BlueZ, adapters and uinput; every rig's checks, with what to do for each that \
            fails (a kernel without Bluetooth is explained once, on the host lines, with the vm rig as the way out; \
            the rigs refer to it); whether the vm rig's image is built in ~/.cache/hil/vm or the first vm command \
            will build it, and why its guest runs under TCG, not KVM; the fixes name the set-up script by its \
            absolute path, so they work from any folder; whether the Bumble phone (hil run --phone bumble) is \
            installed; and what works here without any rig (validate, replay, decode, report, run --list). It \
            boots nothing.

            Exit status 0 when at least one rig can run here (with --rig NAME: when that rig can); 69 (no usable \
            rig, as hil run exits for the same cause) otherwise; 64 (invalid input) when --rig names no rig in the \
            rig files or a rig file cannot be read.
            """
    )

    @OptionGroup var options: RigOptions

    /// An unknown `--rig` is a usage error (64), named with the rigs there are, before anything is probed.
    func validate() throws {
        guard options.rig != "auto" else { return }
        do {
            _ = try options.catalog().rig(named: options.rig)
        } catch let error as RigError {
            throw ValidationError(error.description)
        }
    }

    func run() async throws {
        let catalog = try options.catalog()
        let facts = HostFacts.probe()
        DoctorLines.host(facts).forEach { print($0) }
        do {
            let inside = try RigEnvironment.current()
            if inside.isInsideRig {
                print("  lanes (scenarios hil run runs at once): \(inside.lanes.map(\.description).joined(separator: ", "))")
                DoctorNetwork.insideRig(inside).forEach { print($0) }
            } else {
                print(DoctorNetwork.outsideRig(rigsDirectory: catalog.directory))
            }
        } catch {
            print("  the rig's HIL_* variables: \(error)")
        }
        print("rigs (\(catalog.directory)):")
        var runnable = 0
        for kind in RigSelector.preference {
            for rig in catalog.rigs where rig.kind == kind && (options.rig == "auto" || rig.name == options.rig) {
                let assessment = RigAssessment(rig: rig, facts: facts, rigsDirectory: catalog.directory)
                if assessment.canRun { runnable += 1 }
                DoctorLines.rig(assessment, facts: facts).forEach { print($0) }
                if rig.kind == .vm {
                    print(DoctorLines.image(VMImage.cache(rigsDirectory: catalog.directory)))
                    print(DoctorLines.accelerator(facts))
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
        let (program, missing) = PhoneOption.program(rigs: options.rigs)
        print("the Bumble phone (hil run --phone bumble): " + (missing ?? "installed (\(program?.python ?? "?"))"))
        DoctorLines.withoutRig.forEach { print($0) }
        if runnable == 0 { throw ExitCause.noUsableRig.exit }
    }
}
