@testable import Bench
import RigControl
import Testing

/// The calibration's pacing against a periodic radio: a regular stream meets the connection events at a few phases,
/// so a p50's shift depends on where each stream started; a dithered one meets them at even phases.
@Suite("Send pacing: regular, and dithered against the radio's connection events")
struct SendScheduleTests {
    static let intervalMs = 10.0, eventsMs = 15.0

    /// Each send's wait for the first connection event after it became eligible (`delayMs` after it was sent), for a
    /// stream of `count` sends whose first slot starts `phaseMs` after an event.
    static func waits(_ schedule: SendSchedule, count: Int = 100, phaseMs: Double, delayMs: Double) -> [Double] {
        (0..<count).map { index in
            let sent = phaseMs + (Double(index) + schedule.offset(index)) * intervalMs
            let event = (((sent + delayMs) / eventsMs).rounded(.up)) * eventsMs
            return event - sent
        }
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }

    @Test("regular: every offset is 0; dithered: each in [0, 1), the same for the same seed, and the sends keep their order")
    func offsets() {
        let regular = SendSchedule(rate: 100), dithered = SendSchedule(rate: 100, dither: 7), again = SendSchedule(rate: 100, dither: 7)
        #expect((0..<1000).allSatisfy { regular.offset($0) == 0 })
        let offsets = (0..<1000).map(dithered.offset)
        #expect(offsets.allSatisfy { (0..<1).contains($0) })
        #expect(offsets == (0..<1000).map(again.offset))
        #expect(offsets != (0..<1000).map(SendSchedule(rate: 100, dither: 8).offset))
        #expect(abs(offsets.reduce(0, +) / 1000 - 0.5) < 0.05, "the mean rate stays the rate")
        #expect((1..<1000).allSatisfy { dithered.due($0) > dithered.due($0 - 1) })
    }

    @Test("20 ms injected at 100 Hz against 15 ms events, 900 sends a stream: regular, the p50 moves 20 ms ± where each stream fell (up to 5 ms); dithered, within 1 ms whatever the phases")
    func shiftOfTheMedian() {
        let regular = SendSchedule(rate: 100), dithered = SendSchedule(rate: 100, dither: 0x6361_6C69_6272_6174)
        func shift(_ schedule: SendSchedule, baseline: Double, delayed: Double) -> Double {
            Self.median(Self.waits(schedule, count: 900, phaseMs: delayed, delayMs: 20))
                - Self.median(Self.waits(schedule, count: 900, phaseMs: baseline, delayMs: 0))
        }
        // The baseline stream started 0.5 ms after an event, the delayed one 4.5 ms after: the clusters of the
        // three phases sit 4 ms apart between the two streams, and the regular shift shows it.
        #expect(abs(shift(regular, baseline: 0.5, delayed: 4.5) - 16) < 0.01)
        #expect(abs(shift(regular, baseline: 4.5, delayed: 0.5) - 24) < 0.01)
        for baseline in stride(from: 0.0, to: 15, by: 0.75) {
            for delayed in stride(from: 0.0, to: 15, by: 0.75) {
                let measured = shift(dithered, baseline: baseline, delayed: delayed)
                #expect(abs(measured - 20) <= 1, "phases \(baseline) and \(delayed) ms: the shift is \(measured) ms")
            }
        }
    }

    @Test("calibrate dithers only what the radio delays: the radio's injector has a seed, netem's none")
    func calibrationPace() {
        let radio = DelayInjector.radio(RunningRig.Radio(control: RadioControl(folder: "/run/hil-radio"), intervalMs: 15, packetErrorRate: 0)), netem = DelayInjector.netem(interface: "veth-phone", netns: "hil-phone")
        #expect(radio.sendDither != nil)
        #expect(netem.sendDither == nil)
    }
}
