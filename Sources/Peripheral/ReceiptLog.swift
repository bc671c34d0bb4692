package import InputCodes
import Foundation
import Records
import Synchronization

/// One line per write of the command characteristic, for latency breakdowns, in `ReceiptLine`'s format: when it
/// was received, when each of its frames was written to uinput (CLOCK_MONOTONIC, ns), and the payload.
/// Lines are buffered and written every 256 commands and on `flush` (the peripheral flushes every 250 ms and
/// when it stops).
package final class ReceiptLog: Sendable {
    private let state: Mutex<(handle: FileHandle?, buffer: String, lines: Int)>

    /// - Throws: when the file cannot be created.
    package init(path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
        }
        state = Mutex((try FileHandle(forWritingTo: URL(fileURLWithPath: path)), "", 0))
    }

    package func record(received: MonotonicTime, written: [MonotonicTime]?, payload: [UInt8]) {
        let line = ReceiptLine(received: received.nanoseconds, written: written.map { $0.map(\.nanoseconds) }, payload: payload)
        state.withLock { state in
            state.buffer += line.text + "\n"
            state.lines += 1
            if state.lines % 256 == 0 { Self.write(&state) }
        }
    }

    package func flush() {
        state.withLock { Self.write(&$0) }
    }

    private static func write(_ state: inout (handle: FileHandle?, buffer: String, lines: Int)) {
        guard !state.buffer.isEmpty else { return }
        try? state.handle?.write(contentsOf: Data(state.buffer.utf8))
        state.buffer = ""
    }
}
