import Foundation
@testable import Peripheral
import Testing

@Suite("hil peripheral warns when bluetoothd serves more than one ATT bearer (docs/protocol.md, \"Order\")")
struct BluetoothdBearersTests {
    @Test("[GATT] Channels: the last setting, clamped to 1…5; bluetoothd's default 3 when unset or commented out")
    func channels() {
        #expect(BluetoothdBearers.channels(mainConf: "") == 3)
        #expect(BluetoothdBearers.channels(mainConf: "[GATT]\n#Channels = 1\n") == 3)
        #expect(BluetoothdBearers.channels(mainConf: "[GATT]\nChannels = 1\n") == 1)
        #expect(BluetoothdBearers.channels(mainConf: "[LE]\nChannels=1\n[GATT]\nCache=always\n") == 3, "another group's key is not it")
        #expect(BluetoothdBearers.channels(mainConf: "[GATT]\nChannels=2\nChannels=1\n") == 1)
        #expect(BluetoothdBearers.channels(mainConf: "[GATT]\nChannels=9\n") == 5)
    }

    @Test("bluetoothd's configuration file from its command line: -f FILE, -fFILE, --configfile[=]FILE, else the system's")
    func configFile() {
        #expect(BluetoothdBearers.configFile(arguments: ["-n"]) == "/etc/bluetooth/main.conf")
        #expect(BluetoothdBearers.configFile(arguments: ["-n", "-f", "/run/a.conf"]) == "/run/a.conf")
        #expect(BluetoothdBearers.configFile(arguments: ["-f/run/b.conf"]) == "/run/b.conf")
        #expect(BluetoothdBearers.configFile(arguments: ["--configfile", "/run/c.conf", "-d"]) == "/run/c.conf")
        #expect(BluetoothdBearers.configFile(arguments: ["--configfile=/run/d.conf"]) == "/run/d.conf")
    }

    @Test("the running bluetoothd is found under /proc by its command line, and its file read; one bearer: no warning")
    func running() throws {
        let proc = FileManager.default.temporaryDirectory.appendingPathComponent("bearers-\(getpid())-\(UInt32.random(in: 0...UInt32.max))").path
        defer { try? FileManager.default.removeItem(atPath: proc) }
        func process(_ pid: Int, _ arguments: [String]) throws {
            try FileManager.default.createDirectory(atPath: "\(proc)/\(pid)", withIntermediateDirectories: true)
            try Data(arguments.joined(separator: "\0").utf8 + [0]).write(to: URL(fileURLWithPath: "\(proc)/\(pid)/cmdline"))
        }
        #expect(BluetoothdBearers.running(proc: proc) == nil, "no bluetoothd: nothing to say")
        try process(10, ["/usr/bin/sleep", "60"])
        try process(11, ["/usr/libexec/bluetooth/bluetoothd", "-n", "-f", proc + "/main.conf"])
        try "[General]\n[GATT]\nChannels = 3\n".write(toFile: proc + "/main.conf", atomically: true, encoding: .utf8)
        let eatt = try #require(BluetoothdBearers.running(proc: proc))
        #expect(eatt == BluetoothdBearers(file: proc + "/main.conf", channels: 3))
        let warning = try #require(eatt.warning)
        #expect(warning.contains("3 ATT bearers") && warning.contains(proc + "/main.conf") && warning.contains("Channels = 1"))
        try "[GATT]\nChannels=1\n".write(toFile: proc + "/main.conf", atomically: true, encoding: .utf8)
        #expect(BluetoothdBearers.running(proc: proc)?.warning == nil)
    }
}
