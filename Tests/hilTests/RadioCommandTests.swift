import Foundation
@testable import hil
import HILTestSupport
import Radio
import Testing

@Suite("hil radio: the options make the model; failures name the socket or device and what to run")
struct RadioCommandTests {
    @Test("--interval-ms 15: connection events, 6 packets per event, 12 buffers, the rig's interval to check links by")
    func connectionEvents() throws {
        let radio = try parsed(words("radio --interval-ms 15"), as: RadioCommand.self)
        #expect(radio.vhci == "/dev/vhci" && radio.socket == "/tmp/bt-server-le")
        #expect(radio.model == RadioModel(timing: .connectionEvents(packetsPerEvent: 6, buffers: 12), expectedIntervalUnits: 12))
        let tuned = try parsed(words("radio --interval-ms 7.5 --packets-per-event 2 --delay-ms 3"), as: RadioCommand.self)
        #expect(tuned.model == RadioModel(timing: .connectionEvents(packetsPerEvent: 2, buffers: 4), extraDelayNanoseconds: 3_000_000,
                                          expectedIntervalUnits: 6))
    }

    @Test("--interval-ms 0: immediate, with or without an extra delay")
    func immediate() throws {
        #expect(try parsed(words("radio --interval-ms 0"), as: RadioCommand.self).model == RadioModel(timing: .immediate))
        #expect(try parsed(words("radio --interval-ms 0 --delay-ms 2.5"), as: RadioCommand.self).model
            == RadioModel(timing: .immediate, extraDelayNanoseconds: 2_500_000))
    }

    @Test("an interval no link can have, or no interval, is refused with what is allowed",
          arguments: ["radio --interval-ms 5", "radio --interval-ms 16", "radio --interval-ms 15 --packets-per-event 0", "radio"])
    func refused(_ line: String) {
        let (command, message) = parse(words(line))
        #expect(command == nil)
        #expect(message.contains("--interval-ms") || message.contains("--packets-per-event"), "\(message)")
    }

    @Test("--self-test times the model it is given, and refuses an extra delay it could not judge")
    func selfTest() throws {
        #expect(try parsed(words("radio --self-test --interval-ms 7.5"), as: RadioCommand.self).selfTest)
        let (command, message) = parse(words("radio --self-test --interval-ms 15 --delay-ms 2"))
        #expect(command == nil)
        #expect(message.contains("--self-test times the model without an extra delay"), "\(message)")
    }

    @Test("the totals in the log: held time, and how late after their events packets went (the bridge's own wake-up)")
    func totals() {
        var statistics = ConnectionEventScheduler.Statistics()
        statistics.released = 4
        statistics.heldNanoseconds = 31_600_000
        statistics.longestHoldNanoseconds = 15_000_000
        statistics.lateNanoseconds = 480_000
        statistics.latestNanoseconds = 2_300_000
        statistics.passedAtOnce = 40
        #expect(RadioCommand.totals(statistics) == "released 4 (held 7.9 ms on average, 15.0 ms at most; sent 0.12 ms after "
            + "their event on average, 2.30 ms at most), 40 at once, 0 dropped at disconnects")
        #expect(RadioCommand.totals(.init()) == "released 0, 0 at once, 0 dropped at disconnects")
    }

    @Test("no btvirt socket: exit 69 (no usable rig), naming the socket and btvirt")
    func noSocket() async throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("hil-radio-\(getpid())-none").path
        let run = try await runSeparating(try RigGuest.hilBinary(), ["radio", "--interval-ms", "15", "--socket", missing])
        #expect(run.status == 69)
        #expect(run.errors.contains("cannot connect to \(missing): No such file or directory"), "\(run.errors)")
        #expect(run.errors.contains("start `btvirt -L -s` first"), "\(run.errors)")
    }
}
