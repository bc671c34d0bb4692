import Foundation
package import Radio
import Synchronization

/// A stand-in for the vm rig's radio bridges: it reads each request from the control FIFOs as `hil radio --control`
/// does (the real `BridgeCommand.parse`), and answers it on the answers file (`BridgeAnswer`) with what `answer` decides.
package final class AnsweringBridges: Sendable {
    /// What a bridge answers a command: taken or refused, and what it holds then.
    package struct Reply: Sendable {
        package var accepted = true
        package var errorRate = 0.0
        package var delayMs = 0.0
        package var message = ""

        package init(accepted: Bool = true, errorRate: Double = 0, delayMs: Double = 0, message: String = "") {
            self.accepted = accepted
            self.errorRate = errorRate
            self.delayMs = delayMs
            self.message = message
        }
    }

    private let readers: [Int32]
    private let folder: String
    private let answer: @Sendable (BridgeCommand) -> Reply?
    private let stopped = Atomic<Bool>(false)
    private let seen: Mutex<[[BridgeCommand]]>

    /// Each bridge's commands so far, in order.
    package var received: [[BridgeCommand]] { seen.withLock { $0 } }

    /// Makes `count` FIFOs `control-K` in `folder` and answers what comes on them.
    /// - Parameter answer: the reply to a command; nil: no answer (a bridge that hangs).
    package init(_ count: Int, in folder: String, answer: @escaping @Sendable (BridgeCommand) -> Reply?) throws {
        readers = try openControlFIFOs(count, in: folder)
        self.folder = folder
        self.answer = answer
        seen = Mutex(Array(repeating: [], count: count))
        // A thread of its own: a task could wait behind the tests that block the cooperative pool's few threads.
        let thread = Thread { [self] in serve() }
        thread.start()
    }

    package func stop() {
        stopped.store(true, ordering: .releasing)
    }

    private func serve() {
        defer { for fd in readers { close(fd) } }
        var pending = Array(repeating: "", count: readers.count)
        while !stopped.load(ordering: .acquiring) {
            for (index, fd) in readers.enumerated() {
                var buffer = [UInt8](repeating: 0, count: 256)
                let count = read(fd, &buffer, buffer.count)
                guard count > 0 else { continue }
                pending[index] += String(decoding: buffer[0..<count], as: UTF8.self)
                while let newline = pending[index].firstIndex(of: "\n") {
                    let line = String(pending[index][..<newline])
                    pending[index] = String(pending[index][pending[index].index(after: newline)...])
                    reply(to: line, bridge: index)
                }
            }
            usleep(5000)
        }
    }

    private func reply(to line: String, bridge index: Int) {
        let (id, parsed) = BridgeCommand.parse(request: line)
        guard let id, case .success(let command) = parsed else { return }
        seen.withLock { $0[index].append(command) }
        guard let decided = answer(command) else { return }
        let text = BridgeAnswer(id: id, accepted: decided.accepted, errorRate: decided.errorRate, delayMs: decided.delayMs,
                                links: [.init(handle: 0x2a, intervalMs: 15, anchorNs: 1)], message: decided.message).line + "\n"
        let file = BridgeAnswer.file(forControl: "\(folder)/control-\(index)")
        if let handle = FileHandle(forWritingAtPath: file) {
            handle.seekToEndOfFile()
            handle.write(Data(text.utf8))
            handle.closeFile()
        } else {
            FileManager.default.createFile(atPath: file, contents: Data(text.utf8))
        }
    }
}
