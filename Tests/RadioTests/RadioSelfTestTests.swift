import Radio
import Testing

/// `hil radio --self-test`'s verdict on waits it measured, fed made-up times: the rule, not the machine.
@Suite("The self-test's verdict: the model's waits pass, a packet an event late or lost does not")
struct RadioSelfTestTests {
    static let events = RadioSelfTest(model: RadioModel(timing: .connectionEvents(packetsPerEvent: 6, buffers: 12)), intervalUnits: 12)
    static let interval: Int64 = 15_000_000

    /// 200 sends spread evenly over the phases of a 15 ms grid anchored at 0, each arriving at its next event plus
    /// `late`.
    static func stream(late: Int64 = 0) -> (sent: [RadioInstant], received: [UInt8: RadioInstant]) {
        let sent = (0..<200).map { at(5).advanced(by: Int64($0) * 10_000_000 + Int64($0 * 37 % 50) * 100_000) }
        var received: [UInt8: RadioInstant] = [:]
        for (index, time) in sent.enumerated() {
            let events = (at(0).distance(to: time) + interval - 1) / interval
            received[UInt8(index + 1)] = at(0).advanced(by: events * interval + late)
        }
        return (sent, received)
    }

    @Test("each packet at its next event: no findings, a median near I/2, none off the grid")
    func onTime() {
        let (sent, received) = Self.stream(late: 300_000)
        let measurement = Self.events.judge("one bridge", sent: sent, received: received, anchor: at(0)...at(0.1))
        #expect(measurement.findings == [])
        #expect(measurement.offGrid == 0 && measurement.arrived == 200)
        #expect(abs(measurement.waits.p50! - 7.5) < 1.5)
    }

    @Test("each packet an event late: the median and the p99 are out, and every arrival is off the grid")
    func eventLate() {
        let (sent, received) = Self.stream(late: Self.interval + 7_000_000)
        let measurement = Self.events.judge("one bridge", sent: sent, received: received, anchor: at(0)...at(0.1))
        #expect(measurement.findings.count == 3, "\(measurement.findings)")
        #expect(measurement.findings.first?.hasPrefix("median wait ") == true)
        #expect(measurement.offGrid == 200)
    }

    @Test("lost packets are named; so is a receiving bridge that held what it should have passed")
    func lost() {
        var (sent, received) = Self.stream()
        received[7] = nil
        received[8] = nil
        let measurement = Self.events.judge("two bridges", sent: sent, received: received, anchor: at(0)...at(0.1),
                                            found: ["the receiving side's bridge held 3 packets; it holds none"])
        #expect(measurement.findings == ["the receiving side's bridge held 3 packets; it holds none",
                                         "2 of 200 packets did not arrive within 2 s of the last send"])
        #expect(measurement.line.hasPrefix("two bridges: 198 of 200 arrived; wait p50 "))
    }

    @Test("the immediate model: the bridge may add 0.3 ms on the median, no more")
    func immediate() {
        let test = RadioSelfTest(model: RadioModel(timing: .immediate), intervalUnits: 12)
        let sent = (0..<200).map { at(Double($0) * 10) }
        let quick = Dictionary(uniqueKeysWithValues: sent.enumerated().map { (UInt8($0 + 1), $1.advanced(by: 200_000)) })
        #expect(test.judge("one bridge", sent: sent, received: quick, anchor: at(0)...at(0)).findings == [])
        let slow = quick.mapValues { $0.advanced(by: 200_000) }
        #expect(test.judge("one bridge", sent: sent, received: slow, anchor: at(0)...at(0)).findings
            == ["median wait 0.40 ms in the immediate model; the bridge may add 0.3 ms"])
    }
}
