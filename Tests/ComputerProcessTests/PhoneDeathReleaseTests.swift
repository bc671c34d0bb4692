import ComputerProcess
import InputCodes
import Testing

@Suite("What the computer held when a phone's host died, and when it let go, from its frames")
struct PhoneDeathReleaseTests {
    static func frame(_ ms: Double, _ events: [InputEvent]) -> EvdevFrame {
        EvdevFrame(frame: InputFrame(events), time: MonotonicTime(nanoseconds: UInt64(ms * 1_000_000)))
    }

    static let died = MonotonicTime(nanoseconds: 1_000_000_000)
    static let deadline = MonotonicTime(nanoseconds: 11_000_000_000)

    @Test("a button pressed before the death and released after it: held, released that long after")
    func released() {
        let frames = [Self.frame(500, [.press(.btnLeft)]), Self.frame(600, [InputEvent(.relX, 3)]), Self.frame(1084.8, [InputEvent(.btnLeft, 0)])]
        let release = PhoneDeathRelease(frames, diedAt: Self.died, deadline: Self.deadline)
        #expect(release.heldAtDeath == ["BTN_LEFT"] && release.stillHeld.isEmpty)
        #expect(release.note == "BTN_LEFT held when it died, released 84.8 ms after")
    }

    @Test("one never released by the deadline is still held; nothing held before the death is nothing")
    func stillHeldOrNothing() {
        let held = PhoneDeathRelease([Self.frame(500, [.press(.btnLeft)]), Self.frame(12_000, [InputEvent(.btnLeft, 0)])],
                                     diedAt: Self.died, deadline: Self.deadline)
        #expect(held.stillHeld == ["BTN_LEFT"] && held.note == "BTN_LEFT held when it died; not released: BTN_LEFT")
        let clicked = PhoneDeathRelease([Self.frame(500, [.press(.btnLeft)]), Self.frame(520, [InputEvent(.btnLeft, 0)])],
                                        diedAt: Self.died, deadline: Self.deadline)
        #expect(clicked.heldAtDeath.isEmpty && clicked.note == "nothing was held when it died")
    }
}
