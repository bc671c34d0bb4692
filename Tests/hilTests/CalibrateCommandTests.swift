import ArgumentParser
@testable import hil
import Records
import Testing

@Suite("hil calibrate's command line")
struct CalibrateCommandTests {
    @Test("defaults: tcp and udp, delays 0, 5 and 20 ms, 3 rounds of 300 at 100 Hz, into calibrate/")
    func defaults() throws {
        let command = try parsed(["calibrate"], as: CalibrateCommand.self)
        #expect(command.transport.transports == [.tcp, .udp])
        #expect(command.delays.values == [0, 5, 20])
        #expect(command.count == 300 && command.rounds == 3 && command.rate == 100 && command.output == "calibrate")
        let given = try parsed(["calibrate", "--transport", "udp", "--delays", "2.5,10", "--count", "50", "--rounds", "1"],
                               as: CalibrateCommand.self)
        #expect(given.transport.transports == [.udp] && given.delays.values == [2.5, 10] && given.count == 50 && given.rounds == 1)
    }

    @Test("refused with the reason, exit 64", arguments: [
        ("calibrate --transport bogus", "--transport"), ("calibrate --delays 0,-5", "--delays"), ("calibrate --delays 5,5", "--delays"),
        ("calibrate --delays 1001", "--delays"), ("calibrate --delays five", "--delays"), ("calibrate --delays 5,,20", "--delays"),
        ("calibrate --delays nan", "--delays"), ("calibrate --count 10", "--count takes 50 or more, not 10"),
        ("calibrate --rounds 0", "--rounds takes 1 to 10"), ("calibrate --rate 0", "--rate takes 1 to 1000 Hz"),
        ("calibrate --delays -5", "--delays takes 0 to 1000 ms, not -5 ms"), ("calibrate --delays 0,1001", "--delays takes 0 to 1000 ms"),
    ])
    func refused(line: String, says: String) {
        let (command, message) = parse(words(line))
        if var command {
            do {
                try command.validate()
                Issue.record("\(line) was accepted")
            } catch {
                #expect(HIL.exitCode(for: error).rawValue == 64)
                #expect(HIL.message(for: error).contains(says), "\(HIL.message(for: error))")
            }
        } else {
            #expect(message.contains(says), "\(message)")
        }
    }

    @Test("every transport is accepted on the command line: ble and hid go through the radio model's delay")
    func everyTransport() throws {
        for line in ["calibrate --transport ble", "calibrate --transport tcp,hid", "calibrate --transport all"] {
            let command = try parsed(words(line), as: CalibrateCommand.self)
            try command.validate()
        }
        #expect(try parsed(words("calibrate --transport all"), as: CalibrateCommand.self).transport.transports.count == 4)
    }

    @Test("the table: a row per transport and delay, the interval, and the measured shift minus the injected delay")
    func table() {
        let text = CalibrateCommand.table([
            CalibrationResults.Row(transport: "tcp", injectedMs: 0, sent: 900, verified: 900, p50Ms: 1.5, linkP50Ms: 1.1),
            CalibrationResults.Row(transport: "tcp", injectedMs: 5, sent: 900, verified: 898, p50Ms: 6.62, linkP50Ms: 6.2,
                                   shiftP50Ms: 5.12, shiftLowMs: 5.01, shiftHighMs: 5.2),
        ])
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        #expect(lines[0].hasPrefix("transport") && lines[0].contains("shift − injected"))
        #expect(lines[1].contains("900/900") && lines[1].hasSuffix("-"))
        #expect(lines[2].contains("898/900") && lines[2].contains("5.01…5.20") && lines[2].hasSuffix("+0.12"))
    }
}
