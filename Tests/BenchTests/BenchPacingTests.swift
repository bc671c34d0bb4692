@testable import Bench
import Testing

/// `hil bench` and `hil soak` are phase-independent by default (issue "A radio that loses packets", item 6): a
/// regular 100 Hz stream meets 15 ms events at three phases set by where it began, so five streams' p50s spread by
/// up to 5 ms; dithered (the bench's seed) they agree.
@Suite("Bench pacing: a dithered stream's p50 does not depend on where it met the radio")
struct BenchPacingTests {
    typealias Virtual = SendScheduleTests

    /// The p50 wait of a 300-command stream that started `phaseMs` after a connection event.
    func p50(_ schedule: SendSchedule, phaseMs: Double) -> Double {
        Virtual.median(Virtual.waits(schedule, count: 300, phaseMs: phaseMs, delayMs: 0))
    }

    @Test("streams starting at 5 different phases of 15 ms events: regular p50s spread over 4 ms, dithered within 2 ms")
    func fiveStreams() {
        let phases = [0.5, 3.5, 6.5, 9.5, 12.5]
        let regular = phases.map { p50(SendSchedule(rate: 100), phaseMs: $0) }
        let dithered = phases.map { p50(SendSchedule(rate: 100, dither: SendSchedule.streamDither), phaseMs: $0) }
        #expect(regular.max()! - regular.min()! >= 4, "regular: \(regular)")
        #expect(dithered.max()! - dithered.min()! <= 2, "dithered: \(dithered)")
        // And every phase on a fine grid, at 7.5 and 30 ms events too (the waits scale with the interval).
        for phase in stride(from: 0.0, to: 15, by: 0.25) {
            #expect(abs(p50(SendSchedule(rate: 100, dither: SendSchedule.streamDither), phaseMs: phase) - 7.5) <= 1.5, "phase \(phase)")
        }
    }

    @Test("bench dithers hil's own BLE paths by default and says so in bench.json; --regular-pace sends on the grid")
    func settings() {
        var settings = BenchRunner.Settings()
        #expect(settings.dither)
        #expect(settings.pacing.hasPrefix("dbus, fd and hid (hil's own BLE paths): each send at a uniform offset within its 10 ms slot"))
        settings.dither = false
        #expect(settings.pacing == "every path: every send on a 10 ms grid (--regular-pace)")
        let json = BenchRunner.json([:], paths: [], settings: settings, rig: "vm", kernel: "6.1", bluez: nil)
        #expect(json.contains("\"pacing\" : \"every path: every send on a 10 ms grid (--regular-pace)\"") || json.contains("\"pacing\": \"every path"), "\(json)")
    }
}
