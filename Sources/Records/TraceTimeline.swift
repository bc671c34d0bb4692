import StrictJSON

/// One scenario's evidence on one time axis: the phone's sends, the packets on the air or the wire, the computer's
/// receipts and uinput writes, the evdev frames that came out, and the steps they belong to. All times are
/// CLOCK_MONOTONIC nanoseconds (the capture tools' wall-clock times are converted by the runner).
///
/// Its one owner of `timeline.json`: Chrome's trace-event format (JSON object form), which Perfetto
/// (ui.perfetto.dev) and chrome://tracing open. Each track is a thread of one process; a mark with an end is a
/// complete event (`"ph": "X"`), one without an instant event (`"ph": "i"`); times are µs from the scenario's
/// origin. The `hil` object beside `traceEvents` keeps what the trace format has no place for (the origin, notes).
package struct TraceTimeline: Sendable, Equatable {
    /// The rows of the timeline, top to bottom.
    package enum Track: String, Sendable, CaseIterable {
        case steps, phone, packets, computer, uinput, evdev

        package var title: String {
            switch self {
            case .steps: "steps"
            case .phone: "phone sends"
            case .packets: "HCI / network packets"
            case .computer: "computer receipts"
            case .uinput: "uinput writes"
            case .evdev: "evdev frames"
            }
        }

        var thread: Int { Self.allCases.firstIndex(of: self)! + 1 }
    }

    /// One thing that happened: at an instant, or over a span (`end`).
    package struct Mark: Sendable, Equatable {
        package var track: Track
        package var at: UInt64
        package var end: UInt64?
        package var label: String
        /// Failed steps and refused receipts are flagged (red in the SVG strip).
        package var flagged: Bool

        package init(_ track: Track, at: UInt64, end: UInt64? = nil, label: String, flagged: Bool = false) {
            self.track = track
            self.at = at
            self.end = end
            self.label = label
            self.flagged = flagged
        }
    }

    package var scenario: String
    /// CLOCK_MONOTONIC ns of time 0 (the scenario's start).
    package var origin: UInt64
    package var marks: [Mark]
    /// What the timeline lacks and why (a capture tool that was missing, clocks that could not be aligned).
    package var notes: [String]

    package init(scenario: String, origin: UInt64, marks: [Mark], notes: [String] = []) {
        self.scenario = scenario
        self.origin = origin
        self.marks = marks.sorted { ($0.at, $0.track.thread) < ($1.at, $1.track.thread) }
        self.notes = notes
    }

    /// µs from the origin (negative before it).
    func micros(_ nanoseconds: UInt64) -> Double {
        (Double(nanoseconds) - Double(origin)) / 1000
    }

    /// The trace-event document, pretty-printed with a final newline.
    package var json: String {
        var events: [JSONValue] = [.object(JSONObject([
            ("name", "process_name"), ("ph", "M"), ("pid", 1), ("args", ["name": .string(scenario)]),
        ]))]
        for track in Track.allCases {
            events.append(.object(JSONObject([
                ("name", "thread_name"), ("ph", "M"), ("pid", 1), ("tid", .number(Double(track.thread))),
                ("args", ["name": .string(track.title)]),
            ])))
            events.append(.object(JSONObject([
                ("name", "thread_sort_index"), ("ph", "M"), ("pid", 1), ("tid", .number(Double(track.thread))),
                ("args", ["sort_index": .number(Double(track.thread))]),
            ])))
        }
        for mark in marks {
            var event = JSONObject([("name", .string(mark.label)), ("cat", .string(mark.track.rawValue))])
            if let end = mark.end {
                event.set("ph", "X")
                event.set("dur", .number(max(0, micros(end) - micros(mark.at))))
            } else {
                event.set("ph", "i")
                event.set("s", "t")
            }
            event.set("ts", .number(micros(mark.at)))
            event.set("pid", 1)
            event.set("tid", .number(Double(mark.track.thread)))
            if mark.flagged { event.set("args", ["flagged": true]) }
            events.append(.object(event))
        }
        let hil = JSONObject([
            ("format", "hil-timeline/1"), ("scenario", .string(scenario)), ("originNs", .number(Double(origin))),
            ("notes", .array(notes.map(JSONValue.string))),
        ])
        let document = JSONObject([("traceEvents", .array(events)), ("displayTimeUnit", "ms"), ("hil", .object(hil))])
        return JSONWriter(pretty: true).string(.object(document)) + "\n"
    }

    /// A timeline read back from its `json`.
    /// - Throws: `ReportError` naming the JSON path of what does not fit.
    package init(json text: String, file: String) throws(ReportError) {
        let document: JSONValue
        do {
            document = try JSONParser().parse(text)
        } catch {
            throw ReportError(.invalidJSON, file: file, problems: ["\(error)"])
        }
        do {
            let root = try document.object(at: .root)
            let path = JSONPath.root.appending("hil")
            let hil = try (root["hil"] ?? .null).object(at: path)
            scenario = try (hil["scenario"] ?? .null).string(at: path.appending("scenario"))
            origin = UInt64(try (hil["originNs"] ?? .null).number(at: path.appending("originNs")))
            notes = try (hil["notes"] ?? .null).array(at: path.appending("notes")).compactMap { if case .string(let s) = $0 { s } else { nil } }
            let events = try (root["traceEvents"] ?? .null).array(at: .root.appending("traceEvents"))
            marks = try Self.marks(events, origin: origin)
        } catch {
            throw ReportError(.invalidResults, file: file, problems: ["\(error)"],
                              hint: "a timeline.json as hil run writes it (docs/results-format.md, \"Captures\") has it")
        }
    }

    private static func marks(_ events: [JSONValue], origin: UInt64) throws(JSONSchemaError) -> [Mark] {
        var marks: [Mark] = []
        for (index, event) in events.enumerated() {
            let path = JSONPath.root.appending("traceEvents").appending(index)
            guard case .object(let object) = event, object["ph"] != .string("M") else { continue }
            guard let track = Track(rawValue: try (object["cat"] ?? .null).string(at: path.appending("cat"))) else {
                throw JSONSchemaError(path.appending("cat"), "not a track of hil's timeline")
            }
            let at = Double(origin) + (try (object["ts"] ?? .null).number(at: path.appending("ts"))) * 1000
            let end = object["dur"].flatMap { if case .number(let d) = $0 { UInt64(max(0, at + d * 1000)) } else { nil } }
            let flagged = object["args"].map { if case .object(let args) = $0 { args["flagged"] == .bool(true) } else { false } } ?? false
            marks.append(Mark(track, at: UInt64(max(0, at)), end: end, label: try (object["name"] ?? .null).string(at: path.appending("name")),
                              flagged: flagged))
        }
        return marks
    }
}
