/// `evdev.log`: every event a uinput device delivered, one line each, in a text format close to evemu-record's
/// (docs/results-format.md, "Captures"). Its one owner: it writes the file and reads it back.
///
///     # evdev.log: RemoteTouch HIL (lane 2); CLOCK_MONOTONIC seconds; 3 frames
///     E: 1234.567890 0002 0000 10	# EV_REL / REL_X 10
///     E: 1234.567890 0002 0001 -5	# EV_REL / REL_Y -5
///     E: 1234.567890 0000 0000 0	# ------------ SYN_REPORT (0) ------------
///
/// Each `E:` line is the event's time on CLOCK_MONOTONIC (seconds, 6 decimals: evdev's microseconds), its type
/// and code in hexadecimal (4 digits, as evemu writes them), and its value in decimal; after `#` its names.
/// The time is absolute, not from the first event as evemu's, so lines align with receipts and captures.
/// Each frame ends with its `SYN_REPORT` line; a `SYN_DROPPED` the reader saw is a `# SYN_DROPPED` comment.
public enum EvdevLog {
    /// The file's text for `frames` of the device named `device`.
    public static func text(_ frames: [EvdevFrame], device: String, droppedCount: Int = 0) -> String {
        var lines = ["# evdev.log: \(device); CLOCK_MONOTONIC seconds; \(frames.count) frame\(frames.count == 1 ? "" : "s")"]
        if droppedCount > 0 {
            lines.append("# SYN_DROPPED \(droppedCount) time(s): the reader fell behind and the kernel dropped events")
        }
        for frame in frames {
            for event in frame.events + [InputEvent(.synReport, 0)] {
                lines.append(line(event, at: frame.time))
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// One `E:` line.
    static func line(_ event: InputEvent, at time: MonotonicTime) -> String {
        let type = hex(event.code.type.rawValue)
        let code = hex(event.code.code)
        let comment = event.code == .synReport
            ? "------------ SYN_REPORT (0) ------------"
            : "\(event.code.type) / \(event.code) \(event.value)"
        return "E: \(time) \(type) \(code) \(event.value)\t# \(comment)"
    }

    private static func hex(_ value: UInt16) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// A line that is not an `E:` line, a comment or empty; or an `E:` line whose fields do not parse.
    ///
    /// It has the package's error shape, what, code and hint (System's `ExplainedError`: this module does
    /// not depend on System, and `hil` declares the conformance).
    public struct ParseError: Error, Sendable, CustomStringConvertible {
        /// The kind of failure.
        public enum Code: String, Sendable, Hashable {
            /// A line that is not `E: SECONDS TYPE CODE VALUE`, a comment or empty.
            case unreadableLine
        }

        public var line: Int
        public var text: String
        public var description: String { what }
        /// `.unreadableLine`, the one kind there is.
        public var code: Code { .unreadableLine }
        public var what: String { "evdev.log line \(line): cannot read \(text.debugDescription) (expected E: SECONDS TYPE CODE VALUE)" }
        /// None: the expected form is in `what`.
        public var hint: String? { nil }
    }

    /// The frames of a file written by `text` (events up to each `SYN_REPORT`, stamped with its time).
    public static func frames(_ text: String) throws(ParseError) -> [EvdevFrame] {
        var frames: [EvdevFrame] = []
        var pending: [InputEvent] = []
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let content = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let fields = content.split(whereSeparator: { $0 == " " || $0 == "\t" })
            if fields.isEmpty { continue }
            guard fields.count == 5, fields[0] == "E:", let time = time(fields[1]),
                  let type = UInt16(fields[2], radix: 16).flatMap(EventType.init(rawValue:)),
                  let code = UInt16(fields[3], radix: 16), let value = Int32(fields[4])
            else { throw ParseError(line: index + 1, text: String(raw)) }
            let event = InputEvent(EventCode(type, code), value)
            if event.code == .synReport {
                frames.append(EvdevFrame(frame: InputFrame(pending), time: time))
                pending = []
            } else {
                pending.append(event)
            }
        }
        return frames
    }

    /// `1234.567890` → its instant (microseconds).
    private static func time(_ text: Substring) -> MonotonicTime? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[1].count == 6, let seconds = Int(parts[0]), let micros = Int(parts[1]) else { return nil }
        return MonotonicTime(seconds: seconds, microseconds: micros)
    }
}
