import Testing
import Records
@testable import Evidence

@Suite("hil run --capture: which scenarios keep their files; packet times onto the monotonic clock")
struct CaptureModeTests {
    @Test("failed keeps failed, inconclusive and error scenarios' captures; always keeps all; never none")
    func keeps() {
        let all: [ScenarioResult.Outcome] = [.passed, .failed, .inconclusive, .error, .notApplicable]
        #expect(all.filter(CaptureMode.failed.keeps) == [.failed, .inconclusive, .error])
        #expect(all.filter(CaptureMode.always.keeps) == all)
        #expect(all.filter(CaptureMode.never.keeps).isEmpty)
    }

    @Test("tshark's epoch seconds become nanoseconds exactly, whatever the number of decimals")
    func epoch() {
        #expect(PacketTimes.nanoseconds("1700000000.123456789") == 1_700_000_000_123_456_789)
        #expect(PacketTimes.nanoseconds("1700000000.5") == 1_700_000_000_500_000_000)
        #expect(PacketTimes.nanoseconds("1700000000") == 1_700_000_000_000_000_000)
        #expect(PacketTimes.nanoseconds("17.00.1") == nil)
        #expect(PacketTimes.nanoseconds("x") == nil)
    }
}
