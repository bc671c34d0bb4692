import Foundation
import HILTestSupport
import InputCodes
import Recording
import Records
import Scenario
import ScenarioDriver
import StrictJSON
import Testing

/// `hil record`'s core: a session's receipts and frames → a scenario of send steps whose expectations come from
/// the frames; it validates, replays and passes, and its mutated twin fails.
@Suite("Recording a session: segments, derived expectations, what is left out")
struct SessionRecorderTests {
    @Test("a session recorded on each transport validates, replays offline and passes; its mutated twin fails", arguments: Transport.allCases)
    func recordAndReplay(_ transport: Transport) async throws {
        let session = try await RecordedSession.make(on: transport)
        // Through evdev.log's text, as `hil record --from` reads it: microsecond times.
        let frames = try EvdevLog.frames(EvdevLog.text(session.frames, device: "test"))
        let recording = try SessionRecorder(.init(transport: transport)).record(session.receipts, frames: frames)
        #expect(recording.segments == RecordingSession.segments, "\(recording.scenario.text)")
        #expect(recording.refused == 0)
        let scenario = try RecordedSession.scenario(recording)
        #expect(scenario.run.transport == transport)
        let raw = transport == .hid || transport == .udp
        #expect(scenario.run.transports == (raw ? [transport] : nil), "reports and packets replay on their transport only")
        #expect(recording.scenario.text.contains(transport == .hid ? "\"report\":" : transport == .udp ? "\"packet\":" : "\"command\":"))

        let replay = await OfflineReplay.run(scenario)
        #expect(replay.errors.isEmpty, "\(replay.errors.joined(separator: "\n"))\n\(recording.scenario.text)")
        #expect(replay.steps.filter { $0.outcome == .passed }.count == 5, "\(replay.steps.map(\.outcome))")

        let mutant = try #require(ScenarioMutant(recording.scenario.text))
        let twin = try Scenario.parse(try JSONParser().parse(mutant.text), file: "mutant.json")
        let mutated = await OfflineReplay.run(twin)
        #expect(mutated.steps.contains { $0.outcome == .failed }, "\(mutant.change) did not fail")
    }

    @Test("each segment expects its keys exactly, its motion within the tolerance, and nothing else")
    func expectations() async throws {
        let session = try await RecordedSession.make(on: .ble)
        var options = SessionRecorder.Options(transport: .ble)
        options.tolerancePercent = 5
        let scenario = try RecordedSession.scenario(try SessionRecorder(options).record(session.receipts, frames: session.frames))
        let expectations = scenario.expectations.compactMap(\.events)
        #expect(expectations.count == 5)
        #expect(expectations.allSatisfy { $0.nothingElse })
        #expect(expectations[0].motion[.relX] == .totalPercent(120, percent: 5))
        #expect(expectations[0].motion[.relY] == nil && expectations[0].keys == nil, "a swipe right moves right only")
        #expect(expectations[1].keys?.map(\.description) == ["BTN_LEFT 1", "BTN_LEFT 0"])
        #expect(expectations[2].keys?.map(\.description) == ["BTN_LEFT 1", "BTN_LEFT 0"])
        #expect(expectations[2].motion[.relX] == .totalPercent(-50, percent: 5))
        #expect(expectations[2].motion[.relY] == .totalPercent(30, percent: 5))
        #expect(expectations[3].motion[.relWheel] == .total(6, tolerance: 0), "5 % of 6 notches is under a count: exact")
        #expect(expectations[4].keys?.map(\.description) == ["KEY_LEFTMETA 1", "KEY_C 1", "KEY_C 0", "KEY_LEFTMETA 0"])
        #expect(expectations.allSatisfy { $0.withinMs >= 500 })
        // Idle time between segments is kept as waits; the last one closes the last segment's window.
        let kinds = scenario.script.steps.map(\.name)
        #expect(kinds == ["send", "wait", "send", "wait", "send", "wait", "send", "wait", "send", "wait"], "\(kinds)")
        #expect(scenario.script.steps.last == .wait(.milliseconds(500)))
    }

    static func receipt(_ line: Int, _ ms: Double, _ written: [Double]?, _ payload: String) -> RecordedReceipt {
        RecordedReceipt(line: line, receipt: ReceiptLine(
            received: UInt64(ms * 1e6), written: written.map { $0.map { UInt64($0 * 1e6) } }, payload: payload))
    }

    static func frame(_ ms: Double, _ events: [InputEvent]) -> EvdevFrame {
        EvdevFrame(frame: InputFrame(events), time: MonotonicTime(nanoseconds: UInt64(ms * 1e6)))
    }

    @Test("refused writes are left out: no pairing code, port or address reaches the recording; a segment with no frame expects none")
    func leftOut() throws {
        let receipts = [
            Self.receipt(1, 1000, nil, #"{"tap":{"type":"single"}}"#),  // before pairing: refused
            Self.receipt(2, 1001, nil, "042917"),  // a code written to the command characteristic
            Self.receipt(3, 1002, nil, #"{"type":"pair","timestamp":2,"code":"042917"}"#),
            Self.receipt(4, 1003, nil, "udp aa0005fb00 from 10.77.0.3:40312"),
            Self.receipt(5, 1100, [], #"{"modeChange":{"mode":"presentation"}}"#),
            Self.receipt(6, 3000, [3000.2, 3000.3], #"{"button":{"action":"back"}}"#),
        ]
        let frames = [Self.frame(3000.2, [InputEvent(.keyLeft, 1)]), Self.frame(3000.3, [InputEvent(.keyLeft, 0)])]
        let recording = try SessionRecorder(.init(transport: .ble)).record(receipts, frames: frames)
        #expect(recording.commands == 2 && recording.refused == 4 && recording.segments == 2)
        let text = recording.scenario.text
        for secret in ["042917", "10.77.0.3", "40312", "\"pair\"", "tap"] { #expect(!text.contains(secret), "\(secret) in \(text)") }
        let scenario = try RecordedSession.scenario(recording)
        let first = try #require(scenario.expectations[0].events)
        #expect(first.isAbsenceOnly && first.absentTypes == [.key, .rel], "the mode change wrote nothing, so nothing may come")
        #expect(scenario.expectations[2].events?.keys?.map(\.description) == ["KEY_LEFT 1", "KEY_LEFT 0"])
        #expect(scenario.script.steps[1] == .wait(.microseconds(1_900_000)))
    }

    @Test("a payload the receipts log cut at 600 bytes fails loudly, naming the line and the command")
    func cutPayload() throws {
        let long = #"{"text":{"string":""# + String(repeating: "a", count: 700) + #""}}"#
        let line = ReceiptLine(received: 5_000_000, written: [5_100_000], payload: Array(long.utf8))
        #expect(line.payload.utf8.count == ReceiptLine.payloadLimit)
        do {
            _ = try SessionRecorder(.init(transport: .tcp)).record([RecordedReceipt(line: 7, receipt: line)], frames: [])
            Issue.record("a cut payload was recorded")
        } catch {
            #expect(error.description.hasPrefix("receipts.log line 7: the computer carried out a text command whose payload the receipts log cut at 600 bytes"), "\(error)")
        }
    }

    @Test("what cannot be replayed or expected is refused with what to do", arguments: [
        ("hid 010000000000", Transport.ble, "receipts.log line 1: the computer took a hid report (hid 010000000000), but the session is recorded as ble: record it with --transport hid"),
        ("udp aa00050000", Transport.tcp, "receipts.log line 1: the computer took a udp packet"),
        ("hid 0100", Transport.hid, "receipts.log line 1: \"hid 0100\" is not a hid report: expected 12 hex digits"),
        (#"{"cursorMove":"#, Transport.ble, "receipts.log line 1: the computer carried out a write that does not decode as a command"),
    ])
    func refused(_ payload: String, _ transport: Transport, _ message: String) throws {
        do {
            _ = try SessionRecorder(.init(transport: transport)).record([Self.receipt(1, 10, [10.1], payload)], frames: [])
            Issue.record("\(payload) was recorded")
        } catch {
            #expect(error.description.hasPrefix(message), "\(error)")
        }
    }

    @Test("nothing carried out, or an event no expectation can name, is an error")
    func nothingToRecord() throws {
        #expect(throws: RecordingError.self) {
            try SessionRecorder(.init(transport: .ble)).record([Self.receipt(1, 10, nil, "junk")], frames: [])
        }
        let absolute = [Self.frame(10.5, [InputEvent(EventCode(.abs, 0), 5)])]
        do {
            _ = try SessionRecorder(.init(transport: .ble)).record([Self.receipt(1, 10, [10.5], #"{"rightClick":{}}"#)], frames: absolute)
            Issue.record("an absolute axis was recorded")
        } catch {
            #expect(error.description.contains("which a recording cannot expect"), "\(error)")
        }
    }

    @Test("segments split at the gap; an idle time over 600 s becomes several waits")
    func gaps() throws {
        var options = SessionRecorder.Options(transport: .ble)
        options.gap = .milliseconds(100)
        let recorder = SessionRecorder(options)
        #expect(recorder.split([0, 50_000_000, 149_999_999, 250_000_000, 260_000_000]) == [0..<3, 3..<5])
        let receipts = [Self.receipt(1, 0, [], #"{"rightClick":{}}"#), Self.receipt(2, 1_300_000, [], #"{"rightClick":{}}"#)]
        let scenario = try RecordedSession.scenario(try recorder.record(receipts, frames: []))
        #expect(scenario.script.steps.map(\.name) == ["send", "wait", "wait", "wait", "send", "wait"])
        #expect(scenario.script.steps[1] == .wait(.seconds(600)) && scenario.script.steps[3] == .wait(.seconds(100)))
    }
}
