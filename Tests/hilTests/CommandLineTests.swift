import ArgumentParser
@testable import hil
import HILTestSupport
import Scenario
import Testing

/// Parses a command line as `hil` does: the command, or the message hil would print.
func parse(_ arguments: [String]) -> (command: (any ParsableCommand)?, message: String) {
    do {
        return (try HIL.parseAsRoot(arguments), "")
    } catch {
        return (nil, HIL.message(for: error))
    }
}

/// A command line's words, split at spaces (`"vm exec --timeout 5m -- true"`).
func words(_ line: String) -> [String] { line.split(separator: " ").map(String.init) }

/// The command a command line makes, or the test fails with hil's message.
func parsed<Command: ParsableCommand>(_ arguments: [String], as _: Command.Type) throws -> Command {
    let (command, message) = parse(arguments)
    return try #require(command as? Command, "hil \(arguments.joined(separator: " ")): \(message)")
}

/// The CLI speaks one language: one name for each thing, in every command that takes it.
@Suite("hil's command line: one name for each thing")
struct CommandLineTests {
    @Test("run: --write-path, --transport (a list), --timeout (a duration), -q")
    func run() throws {
        let run = try parsed(["run", "--write-path", "fd", "--transport", "ble,udp", "--timeout", "10m", "-q"], as: RunCommand.self)
        #expect(run.writePath == .fd)
        #expect(run.transport?.transports == [.ble, .udp])
        #expect(run.timeout?.duration == .seconds(600))
        #expect(run.quiet)
        #expect(run.lanes == 1)
        let all = try parsed(["run", "--transport", "all", "--quiet"], as: RunCommand.self)
        #expect(all.transport?.transports == Transport.allCases)
    }

    @Test("bench: --write-path and --transport take lists; --rung-duration and --timeout durations")
    func bench() throws {
        let bench = try parsed(
            ["bench", "--write-path", "fd,dbus", "--transport", "ble,tcp", "--rung-duration", "2s", "--timeout", "90s"],
            as: BenchCommand.self)
        #expect(bench.writePath.values == [.fd, .dbus])
        #expect(bench.transport.transports == [.ble, .tcp])
        #expect(bench.rungDuration.duration == .seconds(2))
        #expect(bench.timeout.duration == .seconds(90))
        let defaults = try parsed(["bench"], as: BenchCommand.self)
        #expect(defaults.writePath.values == [.dbus, .fd])
        #expect(defaults.rungDuration.duration == .seconds(5) && defaults.timeout.duration == .seconds(900))
    }

    @Test("bench --reference: a python- path beside each of hil's own but hid's, and its client's option")
    func benchReference() throws {
        #expect(BenchCommand.paths([.ble, .hid, .tcp, .udp], writePaths: [.dbus, .fd], reference: true) == [
            "dbus", "fd", "python-dbus", "python-fd", "hid", "tcp", "python-tcp", "udp", "python-udp",
        ])
        #expect(BenchCommand.paths([.tcp, .udp], writePaths: [.fd], reference: false) == ["tcp", "udp"])
        #expect(BenchCommand.paths([.udp, .ble], writePaths: [.fd], reference: true) == ["udp", "python-udp", "fd", "python-fd"])
        // The reference client's column carries its transport's claim, as hil's own does.
        #expect(BenchCommand.transport(ofPath: "python-udp") == "udp" && BenchCommand.transport(ofPath: "python-fd") == "ble")
        #expect(BenchCommand.transport(ofPath: "dbus") == "ble" && BenchCommand.transport(ofPath: "tcp") == "tcp")
        let script = packageRoot.appendingPathComponent("Rigs/reference/net_bench_client.py").path
        let bench = try parsed(["bench", "--reference", "--transport", "tcp,udp", "--reference-network-client", script], as: BenchCommand.self)
        #expect(bench.reference && bench.referenceNetworkClient == script)
        #expect(try parsed(["bench"], as: BenchCommand.self).referenceNetworkClient == "Rigs/reference/net_bench_client.py")
        // Each client is needed only by its transports.
        #expect(parse(words("bench --reference --transport udp --reference-network-client missing.py")).message
            .contains("no network reference client at missing.py; run from the project folder or pass --reference-network-client"))
        #expect(parse(words("bench --reference --transport udp --reference-client missing.py --reference-network-client \(script)")).command != nil)
    }

    @Test("bench --help says which reference client runs which paths")
    func benchReferenceHelp() {
        let help = HIL.helpMessage(for: BenchCommand.self, columns: 10_000)
        #expect(help.contains("python-tcp") && help.contains("python-udp") && help.contains("Rigs/reference/net_bench_client.py"))
        #expect(help.contains("--reference-network-client"))
    }

    @Test("soak: --write-path and --duration")
    func soak() throws {
        let soak = try parsed(["soak", "--write-path", "dbus", "--duration", "2h"], as: SoakCommand.self)
        #expect(soak.writePath == .dbus)
        #expect(soak.duration.duration == .seconds(7200))
        let defaults = try parsed(["soak"], as: SoakCommand.self)
        #expect(defaults.writePath == .fd && defaults.duration.duration == .seconds(1800))
        #expect(try parsed(["soak", "--duration", "90s"], as: SoakCommand.self).duration.duration == .seconds(90))
        #expect(parse(["soak", "--duration", "59s"]).command == nil, "under a minute")
    }

    @Test("record: one --transport, --gap and --duration")
    func record() throws {
        let record = try parsed(
            ["record", "--transport", "udp", "--output", "x.json", "--gap", "1s", "--duration", "30s"], as: RecordCommand.self)
        #expect(record.transport == .udp)
        #expect(record.gap.duration == .seconds(1) && record.duration?.duration == .seconds(30))
        let bare = try parsed(["record", "--transport", "ble", "--output", "x.json", "--gap", "0.25"], as: RecordCommand.self)
        #expect(bare.gap.duration == .milliseconds(250), "a bare number is seconds, as for every time option")
        #expect(parse(["record", "--transport", "ble,tcp", "--output", "x.json"]).command == nil)
    }

    @Test("peripheral: --transport (a list) and --lockout")
    func peripheral() throws {
        let peripheral = try parsed(["peripheral", "--transport", "ble,tcp,udp", "--lockout", "2s"], as: PeripheralCommand.self)
        #expect(peripheral.transport.values == [.ble, .tcp, .udp])
        #expect(peripheral.lockout.duration == .seconds(2))
        let defaults = try parsed(["peripheral"], as: PeripheralCommand.self)
        #expect(defaults.transport.values == [.ble] && defaults.lockout.duration == .seconds(300))
    }

    @Test("vm exec, rig exec and lab run: durations")
    func jobs() throws {
        #expect(try parsed(words("vm exec --timeout 5m -- true"), as: VMExecCommand.self).job.timeout.duration == .seconds(300))
        #expect(try parsed(words("rig exec --timeout 90 -- true"), as: RigExecCommand.self).job.timeout.duration == .seconds(90))
        let lab = try parsed(["lab", "run", "--reserve-timeout", "1m", "--timeout", "1h"], as: LabRunCommand.self)
        #expect(lab.reserveTimeout.duration == .seconds(60) && lab.timeout?.duration == .seconds(3600))
    }

    @Test("validate and replay: -q")
    func quiet() throws {
        #expect(try parsed(["validate", "-q"], as: ValidateCommand.self).quiet)
        #expect(try parsed(["replay", "--quiet"], as: ReplayCommand.self).quiet)
    }

    @Test("the old spellings are gone", arguments: [
        ["bench", "--paths", "fd"], ["soak", "--path", "fd"], ["soak", "--minutes", "30"], ["bench", "--rung-seconds", "5"],
        ["peripheral", "--transports", "ble"], ["peripheral", "--lockout-seconds", "2"],
        ["record", "--transport", "ble", "--output", "x.json", "--gap-ms", "500"],
    ])
    func oldSpellings(_ arguments: [String]) {
        let (command, message) = parse(arguments)
        #expect(command == nil)
        #expect(message.contains("Unknown option '\(arguments[arguments.count - 2])'"), "\(message)")
    }
}
