import Foundation
import Records
import Report
import StrictJSON
import Testing

@Suite("Captures in the report: results.json, junit.xml attachments, HTML links, the timeline")
struct CaptureReportTests {
    static let origin: UInt64 = 5_000_000_000

    static var timeline: TraceTimeline {
        TraceTimeline(scenario: "drag then click", origin: origin, marks: [
            .init(.steps, at: origin + 1_000_000, end: origin + 90_000_000, label: "steps[0] drag failed", flagged: true),
            .init(.phone, at: origin + 2_000_000, label: #"{"dragStart":{}}"#),
            .init(.packets, at: origin + 3_500_000, label: "ATT: Rcvd Write Command, Handle: 0x0012"),
            .init(.computer, at: origin + 4_000_000, label: #"{"dragStart":{}}"#),
            .init(.uinput, at: origin + 4_100_000, label: "frame 1 of {\"dragStart\":{}}"),
            .init(.evdev, at: origin + 4_150_000, label: "[BTN_LEFT 1]"),
        ], notes: ["network.pcap is not on the timeline: tshark is not installed."])
    }

    static func failed(captures: [ScenarioResult.Capture]) -> ScenarioResult {
        var record = ScenarioResult(file: "Scenarios/drag.json", name: "drag then click", outcome: .failed, steps: [
                                        StepResult(index: 0, kind: "drag", outcome: .failed, message: "expected [BTN_LEFT 0]"),
                                    ], message: "BTN_LEFT held at the end", durationMs: 2100)
        record.captures = captures
        return record
    }

    static let captures = [
        ScenarioResult.Capture(kind: "timeline", path: "003-drag-then-click/timeline.json"),
        ScenarioResult.Capture(kind: "hci", path: "003-drag-then-click/hci.btsnoop"),
        ScenarioResult.Capture(kind: "evdev", path: "003-drag-then-click/evdev.log"),
    ]

    @Test("a timeline is Chrome trace-event JSON: metadata names each track, spans are X events, instants i events, µs from the origin")
    func traceEvents() throws {
        let text = Self.timeline.json
        let document = try JSONParser().parse(text)
        guard case .object(let root) = document, case .array(let events)? = root["traceEvents"] else {
            Issue.record("no traceEvents array: \(text)")
            return
        }
        let objects = events.compactMap { if case .object(let o) = $0 { o } else { nil } }
        let names = objects.filter { $0["name"] == "thread_name" }.compactMap { $0["args"] }
        #expect(names.count == TraceTimeline.Track.allCases.count)
        let span = try #require(objects.first { $0["cat"] == "steps" })
        #expect(span["ph"] == "X")
        #expect(span["ts"] == .number(1000))
        #expect(span["dur"] == .number(89000))
        let packet = try #require(objects.first { $0["cat"] == "packets" })
        #expect(packet["ph"] == "i")
        #expect(packet["ts"] == .number(3500))
        #expect(root["displayTimeUnit"] == "ms")
    }

    @Test("a timeline reads back as written; a file that is not one is refused with its path")
    func roundTrip() throws {
        let read = try TraceTimeline(json: Self.timeline.json, file: "t.json")
        #expect(read == Self.timeline)
        #expect(throws: ReportError.self) { try TraceTimeline(json: "{\"traceEvents\": []}", file: "t.json") }
        do {
            _ = try TraceTimeline(json: "[1,", file: "broken/timeline.json")
            Issue.record("broken JSON was read")
        } catch {
            #expect(error.description.contains("broken/timeline.json"))
        }
    }

    @Test("captures round-trip through results.json, and junit.xml attaches them to the failure only")
    func resultsAndJUnit() throws {
        let passed = ScenarioResult(file: "Scenarios/tap.json", name: "tap", outcome: .passed, steps: [])
        let results = RunResults(scenarios: [Self.failed(captures: Self.captures), passed])
        let read = try RunResults.parse(Array(results.jsonText.utf8), file: "results.json")
        #expect(read.scenarios[0].captures == Self.captures)
        #expect(read.scenarios[1].captures.isEmpty)
        let xml = results.junitXML
        #expect(xml.contains("<system-out>[[ATTACHMENT|003-drag-then-click/timeline.json]]\n[[ATTACHMENT|003-drag-then-click/hci.btsnoop]]\n[[ATTACHMENT|003-drag-then-click/evdev.log]]</system-out>"))
        #expect(xml.components(separatedBy: "<system-out>").count == 2)
        let failure = try #require(xml.range(of: "</failure>"))
        let attachments = try #require(xml.range(of: "<system-out>"))
        #expect(failure.upperBound <= attachments.lowerBound, "system-out follows the failure, as JUnit's schema orders them")
    }

    @Test("the HTML report links a failure's captures and draws its timeline strip")
    func html() {
        let results = RunResults(scenarios: [Self.failed(captures: Self.captures)])
        let html = HTMLReport.render(results, timelines: ["003-drag-then-click/timeline.json": Self.timeline])
        #expect(html.contains("<a href=\"003-drag-then-click/hci.btsnoop\">HCI capture (btsnoop)</a>"))
        #expect(html.contains("<a href=\"003-drag-then-click/timeline.json\">timeline (Perfetto)</a>"))
        #expect(html.contains("<svg class=\"timeline\""))
        #expect(html.contains("ATT: Rcvd Write Command"))
        #expect(html.contains("tshark is not installed"))
        let without = HTMLReport.render(results)
        #expect(without.contains("evdev.log"))
        #expect(!without.contains("<svg class=\"timeline\""))
    }

    @Test("capture paths are made absolute from their results.json's folder, then relative to the folder of the file written")
    func absolute() {
        let results = RunResults(scenarios: [Self.failed(captures: Self.captures)]).capturesAbsolute(from: "/data/run1")
        #expect(results.scenarios[0].captures[1].path == "/data/run1/003-drag-then-click/hci.btsnoop")
        #expect(results.capturesAbsolute(from: "/elsewhere").scenarios[0].captures[1].path == "/data/run1/003-drag-then-click/hci.btsnoop")
        #expect(results.capturesRelative(to: "/data/report").scenarios[0].captures[1].path == "../run1/003-drag-then-click/hci.btsnoop")
        #expect(results.capturesRelative(to: "/data/run1/").scenarios[0].captures[1].path == "003-drag-then-click/hci.btsnoop")
        #expect(results.capturesRelative(to: "/").scenarios[0].captures[1].path == "data/run1/003-drag-then-click/hci.btsnoop")
    }
}
