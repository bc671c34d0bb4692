import InputCodes
import ScenarioDriver
import Testing
@testable import Bench

@Suite("hil soak: each command's frame, matched per value")
struct SoakMatchTests {
    static let ms: UInt64 = 1_000_000

    static func send(_ value: Int, at: UInt64) -> StageBreakdown.Send {
        .init(at: at * ms, payload: #"{"cursorMove":{"delta":[\#(value),0]}}"#)
    }

    static func frame(_ value: Int32, at: UInt64) -> EvdevFrame {
        EvdevFrame(frame: InputFrame([InputEvent(.relX, value)]), time: MonotonicTime(nanoseconds: at * ms))
    }

    @Test("frames delivered out of order are all verified; a lost command leaves only its own send unmatched")
    func outOfOrderAndLost() {
        let sends = [Self.send(1, at: 0), Self.send(2, at: 8), Self.send(3, at: 16), Self.send(4, at: 24)]
        // 2 arrives before 1 (bluetoothd delivered it first), 3 is lost.
        let frames = [Self.frame(2, at: 12), Self.frame(1, at: 13), Self.frame(4, at: 30)]
        var heads: [Int32: Int] = [:]
        let matches = SoakRunner.match(sends[...], frames: frames, heads: &heads)
        #expect(matches.map(\.send) == [0, 1, 3])
        #expect(matches.map(\.frame) == [1, 0, 2])
    }

    @Test("a frame from before a send is never its match; values that repeat pair off in order across calls")
    func neverEarlierAndAcrossMinutes() {
        // Value 5 sent twice and one frame, stamped between the sends: it is the first send's, never the second's.
        var heads: [Int32: Int] = [:]
        let first = SoakRunner.match([Self.send(5, at: 0), Self.send(5, at: 100)][...], frames: [Self.frame(5, at: 50)], heads: &heads)
        #expect(first.map(\.send) == [0])
        // The next minute: value 5 again, and the frames list has grown; the earlier frame is not reused.
        let frames = [Self.frame(5, at: 50), Self.frame(5, at: 130), Self.frame(7, at: 131)]
        let sends = [Self.send(5, at: 0), Self.send(5, at: 100), Self.send(5, at: 120), Self.send(7, at: 121)]
        let second = SoakRunner.match(sends[2...], frames: frames, heads: &heads)
        #expect(second.map(\.send) == [2, 3])
        #expect(second.map(\.frame) == [1, 2])
        #expect(SoakRunner.value(of: #"{"cursorMove":{"delta":[997,0]}}"#) == 997)
        #expect(SoakRunner.value(of: "garbage") == nil)
    }
}
