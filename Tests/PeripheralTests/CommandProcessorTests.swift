import Evdev
import Foundation
import InputCodes
import Peripheral
import RemoteTouchProtocol
import HILTestSupport
import Testing

/// Records what would have been injected.
final class RecordingSink: InputSink, @unchecked Sendable {
    // Safety: guarded by `lock`.
    private let lock = NSLock()
    private var recorded: [InputFrame] = []
    var frames: [InputFrame] { lock.withLock { recorded } }

    func emit(_ frames: [InputFrame]) throws(EvdevError) -> [MonotonicTime] {
        lock.withLock { recorded += frames }
        return frames.map { _ in MonotonicTime.now() }
    }
}

private let phone = "00:AA:01:01:00:01"

@Suite("Command path: decode, paired check, map, inject")
struct CommandProcessorTests {
    func setUp() throws -> (CommandProcessor, RecordingSink, PairingAuthority) {
        let shown = ShownCodes()
        let pairing = try PairingAuthority(stateFile: nil, onCodeShown: shown.record)
        _ = pairing.read(by: phone, now: 0)
        _ = try pairing.write(Array(shown.last!.utf8), by: phone, now: 1)
        let sink = RecordingSink()
        return (CommandProcessor(sink: sink, pairing: pairing, log: PeripheralLog(path: nil, echo: false)), sink, pairing)
    }

    @Test("a paired central's command is mapped and injected")
    func injects() throws {
        let (processor, sink, _) = try setUp()
        let outcome = processor.handle(Array(#"{"cursorMove":{"delta":[10,-5]}}"#.utf8), from: phone)
        guard case .injected(let command, let frames, let times) = outcome else {
            Issue.record("refused: \(outcome)")
            return
        }
        #expect(command == .cursorMove(delta: Point(x: 10, y: -5)))
        #expect(frames == [InputFrame([InputEvent(.relX, 10), InputEvent(.relY, -5)])])
        #expect(times.count == 1)
        #expect(sink.frames == frames)
    }

    @Test("an unpaired central's commands inject nothing and get notPaired")
    func unpaired() throws {
        let (processor, sink, _) = try setUp()
        let outcome = processor.handle(Array(#"{"tap":{"type":"single"}}"#.utf8), from: "11:22:33:44:55:66")
        guard case .refused(let error) = outcome else {
            Issue.record("injected for an unpaired central")
            return
        }
        #expect(error.code == "notPaired")
        #expect(sink.frames.isEmpty)
    }

    @Test("malformed writes are refused with the reason, inject nothing, and the next valid command works",
          arguments: [#"{"tap":"#, "{\"cursorMove\":{\"delta\":[NaN,1]}}", #"{"teleport":{}}"#, #"{"cursorMove":{"delta":[1e300,1]}}"#,
                      String(repeating: "x", count: 512), #"{"text":{"string":"é"}}"#])
    func malformed(payload: String) throws {
        let (processor, sink, _) = try setUp()
        guard case .refused(let error) = processor.handle(Array(payload.utf8), from: phone) else {
            Issue.record("accepted \(payload)")
            return
        }
        #expect(error.code == "invalidCommand")
        #expect(!error.message.isEmpty)
        #expect(sink.frames.isEmpty)
        guard case .injected = processor.handle(Array(#"{"tap":{"type":"single"}}"#.utf8), from: phone) else {
            Issue.record("the next valid command did not work")
            return
        }
    }

    @Test("mode changes re-map the buttons (R7.5)")
    func modes() throws {
        let (processor, sink, _) = try setUp()
        _ = processor.handle(Array(#"{"modeChange":{"mode":"presentation"}}"#.utf8), from: phone)
        _ = processor.handle(Array(#"{"button":{"action":"forward"}}"#.utf8), from: phone)
        #expect(processor.mode == .presentation)
        #expect(sink.frames == [InputFrame([.press(.keyRight)]), InputFrame([.release(.keyRight)])])
    }

    @Test("a dropped link releases a held drag button")
    func releaseOnDrop() throws {
        let (processor, sink, _) = try setUp()
        _ = processor.handle(Array(#"{"dragStart":{}}"#.utf8), from: phone)
        #expect(processor.releaseAll(reason: "link dropped") == [InputFrame([.release(.btnLeft)])])
        #expect(sink.frames.last == InputFrame([.release(.btnLeft)]))
        #expect(processor.releaseAll(reason: "again").isEmpty)
    }
}

@Suite("Peripheral log")
struct PeripheralLogTests {
    @Test("the log rotates so both files stay under 1 MB")
    func rotation() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/peripheral.log"
        let log = PeripheralLog(path: path, echo: false)
        let line = String(repeating: "x", count: 1000)
        for _ in 0..<2500 { log.warning(line) }
        let size = { (file: String) -> Int in
            ((try? FileManager.default.attributesOfItem(atPath: file))?[.size] as? NSNumber)?.intValue ?? 0
        }
        #expect(size(path + ".1") > 0)
        #expect(size(path) + size(path + ".1") <= 1024 * 1024)
    }
}
