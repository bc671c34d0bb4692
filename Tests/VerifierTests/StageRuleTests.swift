import Testing
@testable import Verifier

/// The time rules: the computer's own stage over a scenario's writes, and a step's link stage against its model.
@Suite("StageRule: the computer's own stage and the link stage, as limits")
struct StageRuleTests {
    static let limits = StageRule.Limits(computerMedianMs: 2.5, computerMaxMs: 60, linkHostMs: 8)

    static func handled(_ stages: [Double], firstCold: Double? = nil) -> [StageRule.Handled] {
        var all = stages.enumerated().map { index, ms in
            StageRule.Handled(received: UInt64(index) * 16_000_000 + 1_000_000_000, firstWritten: UInt64(index) * 16_000_000 + 1_000_000_000 + UInt64(ms * 1e6),
                              step: index / 5, payload: "{\"cursorMove\":{\"delta\":[10,0]}}")
        }
        if let firstCold {
            all.insert(StageRule.Handled(received: 0, firstWritten: UInt64(firstCold * 1e6), step: 0, payload: "{\"tap\":{\"type\":\"single\"}}", first: true), at: 0)
        }
        return all
    }

    @Test("an unchanged computer passes, its cold first write aside; one that waits 5 ms a write fails on the median, by how much")
    func computer() {
        #expect(StageRule.computer(Self.handled([0.2, 0.3, 0.25, 1.1, 0.4, 0.2, 0.3, 0.2, 0.5, 0.3], firstCold: 210), limits: Self.limits, stated: "the vm rig's release limits").isEmpty)
        let slow = StageRule.computer(Self.handled([5.2, 5.3, 5.25, 6.1, 5.4, 5.2, 5.3, 5.3, 5.6, 5.2], firstCold: 8), limits: Self.limits, stated: "the vm rig's release limits")
        #expect(slow.count == 1)
        #expect(slow.first?.step == nil)
        #expect(slow.first?.text == "the computer's own stage (a write received → its first frame written) has a median of 5.3 ms over 10 writes, over the 2.5 ms limit (the vm rig's release limits), by 2.8 ms")
        // Nine writes judge no median: five made the first scenario after a boot fail now and then.
        #expect(StageRule.computer(Self.handled([6.3, 6.3, 6.3, 6.3, 6.3, 6.3, 6.3, 6.3, 6.3]), limits: Self.limits, stated: "x").isEmpty)
    }

    @Test("one write over the maximum fails its step; fewer than three writes judge no median")
    func maximum() {
        let stalled = StageRule.computer(Self.handled([0.2, 0.3, 0.2, 0.2, 0.2, 75, 0.2]), limits: Self.limits, stated: "x")
        #expect(stalled.count == 1)
        #expect(stalled.first?.step == 1)
        #expect(stalled.first?.text.hasPrefix("the computer took 75.0 ms from receiving {\"cursorMove\":{\"delta\":[10,0]}} to its first frame, over the 60.0 ms limit (x)") == true)
        #expect(StageRule.computer(Self.handled([9, 9]), limits: Self.limits, stated: "x").isEmpty)
    }

    @Test("a link stage against the radio: the next event, one missed, the closures a packet error rate brings, the hosts' share × scale")
    func link() {
        let radio = StageRule.LinkModel.radio(intervalMs: 15, errorRate: 0)
        #expect(StageRule.link(ms: 61, model: radio, limits: Self.limits, scale: 4) == nil)
        let late = StageRule.link(ms: 70, model: radio, limits: Self.limits, scale: 4)
        #expect(late == "the link stage took 70.0 ms, 8.0 ms more than its model explains: 30.0 ms for 15.0 ms connection events: the next event, one missed by the phone's host, and 32.0 ms for the hosts (8.0 × the rig's latency scale 4.0)")
        #expect(StageRule.closures(errorRate: 0) == 0)
        #expect(StageRule.closures(errorRate: 0.1) == 1)
        #expect(StageRule.closures(errorRate: 0.3) == 3)
        #expect(StageRule.link(ms: 100, model: .radio(intervalMs: 15, errorRate: 0.3), limits: Self.limits, scale: 4) == nil)
        #expect(StageRule.link(ms: 45, model: .network(delayMs: 0, jitterMs: 0), limits: Self.limits, scale: 4) != nil)
        #expect(StageRule.link(ms: 75, model: .network(delayMs: 20, jitterMs: 5), limits: Self.limits, scale: 4) == nil)
        #expect(StageRule.link(ms: 80, model: .network(delayMs: 20, jitterMs: 5), limits: Self.limits, scale: 4) != nil)
        // 5 % loss: a segment may be sent again three times (0.05³ > 1e-4), after 200, 400 and 800 ms.
        #expect(StageRule.link(ms: 1450, model: .network(delayMs: 20, jitterMs: 5, lossPercent: 5), limits: Self.limits, scale: 4) == nil)
    }

    @Test("a write queued behind one the link made on its own is timed from that one's receipt; others are not")
    func queuedBehindTheLinksOwnWrite() {
        let sent: UInt64 = 95_784_922_000
        // The mode write the reconnect sent arrived 21 ms after the key was handed over; the key 116.6 ms after.
        #expect(StageRule.linkStage(ms: 116.6, sent: sent, linkWrites: [sent + 21_000_000]) == 95.6)
        // Before the send, or after the write's own receipt: nothing it waited behind.
        #expect(StageRule.linkStage(ms: 116.6, sent: sent, linkWrites: [sent - 1_000_000, sent + 200_000_000]) == 116.6)
        #expect(StageRule.linkStage(ms: 116.6, sent: sent, linkWrites: []) == 116.6)
    }

    @Test("the link rule leaves out a scenario's first write and the later writes of one command; it times a write from the link's own write it queued behind")
    func linkEvidence() {
        let start: UInt64 = 10_000_000_000
        let sends: [(at: UInt64, payload: String)] = [
            (start, #"{"mode":"basic"}"#),
            (start + 50_000_000, "hid 01 01 00 00 00 00"), (start + 50_000_000, "hid 01 00 00 00 00 00"),
            (start + 90_000_000, #"{"key":"a"}"#),
        ]
        let receipts: [(received: UInt64, payload: String)] = [
            (start + 20_000_000, #"{"mode":"basic"}"#), (start + 70_000_000, "hid 01 01 00 00 00 00"),
            (start + 80_000_000, "hid 01 00 00 00 00 00"), (start + 100_000_000, #"{"mode":"media"}"#),
            (start + 140_000_000, #"{"key":"a"}"#),
        ]
        let evidence = StageRule.LinkEvidence(sends: sends, receipts: receipts)
        // The scenario's first write, and a step whose first write shares its stamp (within the 2 ns of rounding).
        #expect(evidence.judged(ms: 20, sent: start) == nil)
        #expect(evidence.judged(ms: 20, sent: start + 50_000_001) == nil)
        // The key waited behind the mode write the link made on its own (received at +100 ms): 40 ms, not 50.
        #expect(evidence.judged(ms: 50, sent: start + 90_000_000) == 40)
        // A step whose send time is not known is judged as measured.
        #expect(evidence.judged(ms: 50, sent: nil) == 50)
    }
}
