import InputCodes
import Testing

/// The kernel's event codes by name (`EventCode`, `EventType`), the events and frames made of them. The numbers are
/// checked against libevdev's own table in SystemLibraryTests; here, what the names and texts are.
@Suite("Event codes, events and frames: names, texts, lookups")
struct EventCodeTests {
    @Test("a known code reads as its kernel name, an unknown one as its type and number; names look codes up")
    func names() {
        #expect(EventCode.relX.description == "REL_X" && EventCode.btnLeft.name == "BTN_LEFT")
        #expect(EventCode(name: "KEY_ESC") == .keyEsc && EventCode(name: "REL_WHEEL_HI_RES") == .relWheelHiRes)
        #expect(EventCode(name: "KEY_NOT_A_KEY") == nil)
        let unknown = EventCode(.key, 0x1ff)
        #expect(unknown.name == nil && unknown.description == "EV_KEY:0x1ff")
        #expect(EventType.allCases.map(\.description) == ["EV_SYN", "EV_KEY", "EV_REL", "EV_ABS", "EV_MSC"])
    }

    @Test("every known code has one name, and its name finds it again")
    func table() throws {
        #expect(EventCode.allKnown.count > 20, "\(EventCode.allKnown.count)")
        #expect(Set(EventCode.allKnown).count == EventCode.allKnown.count, "a code is listed twice")
        for code in EventCode.allKnown {
            let name = try #require(code.name, "\(code) has no name")
            #expect(EventCode(name: name) == code, "\(name) finds \(String(describing: EventCode(name: name))), not \(code)")
        }
    }

    @Test("events and frames read as their codes and values; a frame with its time")
    func texts() {
        let frame = InputFrame([InputEvent(.relX, 10), .press(.btnLeft), .release(.keyA)])
        #expect(frame.description == "[REL_X 10, BTN_LEFT 1, KEY_A 0]")
        let read = EvdevFrame(frame: frame, time: MonotonicTime(seconds: 12, microseconds: 345))
        #expect(read.events == frame.events)
        #expect(read.description == "12.000345 [REL_X 10, BTN_LEFT 1, KEY_A 0]")
    }
}
