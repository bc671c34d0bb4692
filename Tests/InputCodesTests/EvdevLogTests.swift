import InputCodes
import Testing

@Suite("evdev.log: every event with its CLOCK_MONOTONIC time, close to evemu-record's lines")
struct EvdevLogTests {
    static let frames = [
        EvdevFrame(frame: InputFrame([InputEvent(.relX, 10), InputEvent(.relY, -5)]), time: MonotonicTime(seconds: 1234, microseconds: 567_890)),
        EvdevFrame(frame: InputFrame([.press(.btnLeft)]), time: MonotonicTime(seconds: 1234, microseconds: 600_001)),
        EvdevFrame(frame: InputFrame([InputEvent(EventCode(.key, 0x1ff), 1)]), time: MonotonicTime(seconds: 1235, microseconds: 0)),
    ]

    @Test("each event is an E: line (time, type and code in hex, value), each frame ends with its SYN_REPORT")
    func lines() {
        let text = EvdevLog.text(Self.frames, device: "RemoteTouch HIL", droppedCount: 0)
        let lines = text.split(separator: "\n")
        #expect(lines.first == "# evdev.log: RemoteTouch HIL; CLOCK_MONOTONIC seconds; 3 frames")
        #expect(lines[1] == "E: 1234.567890 0002 0000 10\t# EV_REL / REL_X 10")
        #expect(lines[2] == "E: 1234.567890 0002 0001 -5\t# EV_REL / REL_Y -5")
        #expect(lines[3] == "E: 1234.567890 0000 0000 0\t# ------------ SYN_REPORT (0) ------------")
        #expect(lines[4] == "E: 1234.600001 0001 0110 1\t# EV_KEY / BTN_LEFT 1")
        #expect(lines[6] == "E: 1235.000000 0001 01ff 1\t# EV_KEY / EV_KEY:0x1ff 1")
        #expect(lines.count == 1 + 2 + 1 + 1 + 1 + 1 + 1)
    }

    @Test("what it writes reads back as the same frames; SYN_DROPPED is said in the header")
    func roundTrip() throws {
        let text = EvdevLog.text(Self.frames, device: "d", droppedCount: 2)
        #expect(text.contains("# SYN_DROPPED 2 time(s)"))
        #expect(try EvdevLog.frames(text) == Self.frames)
    }

    @Test("a line that is not an event is refused with its number", arguments: [
        "E: 12.5 0002 0000 1", "E: 12.000001 0002 0000", "X: 12.000001 0002 0000 1", "E: 12.000001 0009 0000 1",
    ])
    func badLine(_ line: String) {
        #expect(throws: EvdevLog.ParseError.self) { try EvdevLog.frames("# header\n" + line + "\n") }
        do {
            _ = try EvdevLog.frames("# header\n" + line + "\n")
        } catch {
            #expect(error.line == 2)
        }
    }
}
