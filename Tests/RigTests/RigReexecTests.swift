import Rig
import Testing

@Suite("Re-executing hil inside the rig: every option the user gave survives")
struct RigReexecTests {
    static let replacements: [(option: String, value: String)] = [
        ("--rig", "vm"), ("--rigs", "/work/Rigs"), ("--output", "/hil/share/results"), ("--host-name", "box"),
    ]

    @Test("hil run: every option passes on; --rig, --rigs and --output are replaced, not doubled")
    func run() {
        let typed = [
            ".build/debug/hil", "run", "--fail-fast", "--repeat", "3", "--baseline", "x", "--shard", "2/3", "--write-path", "fd",
            "--filter", "faults", "--rig", "auto", "--output=/tmp/r", "--timeout", "60", "Scenarios/", "--list",
        ]
        let command = RigReexec(commandLine: typed, executable: "/work/.build/debug/hil").command(replacing: Self.replacements)
        #expect(command == [
            "/work/.build/debug/hil", "run", "--fail-fast", "--repeat", "3", "--baseline", "x", "--shard", "2/3", "--write-path", "fd",
            "--filter", "faults", "--timeout", "60", "Scenarios/", "--list",
            "--rig", "vm", "--rigs", "/work/Rigs", "--output", "/hil/share/results", "--host-name", "box",
        ])
    }

    @Test("bench and soak: options they never listed by hand pass on too")
    func benchAndSoak() {
        let bench = RigReexec(commandLine: ["hil", "bench", "--count", "50", "--no-find-max", "--write-path", "fd", "--rigs", "R"],
                              executable: "/hil")
        #expect(bench.command(replacing: [("--rigs", "/R"), ("--output", "/o")])
            == ["/hil", "bench", "--count", "50", "--no-find-max", "--write-path", "fd", "--rigs", "/R", "--output", "/o"])
        let soak = RigReexec(commandLine: ["hil", "soak", "--duration=2m", "--write-path", "dbus", "--rate", "50"], executable: "/hil")
        #expect(soak.command(replacing: [("--output", "/o")])
            == ["/hil", "soak", "--duration=2m", "--write-path", "dbus", "--rate", "50", "--output", "/o"])
    }

    @Test("--rigs is not mistaken for --rig; removed options go with their value; after -- nothing is touched")
    func spellings() {
        let reexec = RigReexec(commandLine: ["hil", "x", "--rigs=/a", "--rig=vm", "--timeout", "9", "--", "--rig", "y"],
                               executable: "/hil")
        #expect(reexec.command(replacing: [("--rig", "virtual")], removing: ["--timeout"])
            == ["/hil", "x", "--rigs=/a", "--rig", "virtual", "--", "--rig", "y"])
    }
}
