import Foundation
import InputCodes
import Peripheral
import Records
import RemoteTouchProtocol
import Testing

/// A command a TCP frame carried is decoded once, by the session that read the frame: the processor takes it
/// decoded, times its handling from when the frame's bytes were read, and logs the same receipt a BLE write of it
/// would.
@Suite("A command decoded from a TCP frame")
struct DecodedCommandTests {
    static let phone = "10.77.0.2:40000"

    func processor(receipts path: String) throws -> (CommandProcessor, RecordingSink) {
        let shown = ShownCodes()
        let pairing = try PairingAuthority(stateFile: nil, onCodeShown: shown.record)
        _ = pairing.read(by: Self.phone, now: 0)
        _ = try pairing.write(Array(shown.last!.utf8), by: Self.phone, now: 1)
        let sink = RecordingSink()
        let log = PeripheralLog(path: nil, echo: false)
        return (CommandProcessor(sink: sink, pairing: pairing, log: log, receipts: try ReceiptLog(path: path)), sink)
    }

    @Test("handling counts from when the frame was read; the receipt holds that time and the command's encoding")
    func timedFromTheRead() throws {
        let path = NSTemporaryDirectory() + "receipts-\(UUID().uuidString).log"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (processor, sink) = try processor(receipts: path)
        let command = Command.cursorMove(delta: Point(x: 3, y: -1))
        // The frame was read 5 ms before the processor saw its command.
        let read = MonotonicTime(nanoseconds: MonotonicTime.now().nanoseconds - 5_000_000)
        guard case .injected(let injected, let frames, let times) = processor.handle(command, from: Self.phone, received: read) else {
            Issue.record("refused")
            return
        }
        #expect(injected == command)
        #expect(sink.frames == frames)
        #expect(processor.handlingTimes == [times.last! - read])
        #expect(processor.handlingTimes[0] >= .milliseconds(5))
        processor.flushReceipts()
        let lines = ReceiptLine.parse(log: try String(contentsOfFile: path, encoding: .utf8))
        #expect(lines.count == 1)
        #expect(lines.first?.received == read.nanoseconds)
        #expect(lines.first?.written == times.map(\.nanoseconds))
        #expect(lines.first?.payload == String(decoding: command.encoded(), as: UTF8.self))
    }

    @Test("an unpaired session's command injects nothing, is refused as notPaired and is logged as refused")
    func unpaired() throws {
        let path = NSTemporaryDirectory() + "receipts-\(UUID().uuidString).log"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (processor, sink) = try processor(receipts: path)
        guard case .refused(let error) = processor.handle(.rightClick, from: "10.77.0.9:1", received: .now()) else {
            Issue.record("injected for an unpaired session")
            return
        }
        #expect(error.code == "notPaired")
        #expect(sink.frames.isEmpty)
        #expect(processor.handlingTimes.isEmpty)
        processor.flushReceipts()
        let lines = ReceiptLine.parse(log: try String(contentsOfFile: path, encoding: .utf8))
        #expect(lines.map(\.written) == [nil])
        #expect(lines.first?.payload == String(decoding: Command.rightClick.encoded(), as: UTF8.self))
    }
}
