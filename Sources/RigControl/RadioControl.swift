import Foundation
import Processes
package import Radio
package import System
import Synchronization

/// The vm rig's radio bridges, reached through their control FIFOs (`hil radio --control`, the guest's
/// `/run/hil-radio/control-K`): a typed `BridgeCommand` to each, and each one's `BridgeAnswer` awaited on its answers
/// file. The one sender of those commands; the bridge is their one reader.
package struct RadioControl: Sendable, Hashable {
    /// The folder of the bridges' FIFOs (the guest's /run/hil-radio), each bridge's `control-K`.
    package var folder: String

    package init(folder: String) {
        self.folder = folder
    }

    /// Every bridge's FIFO, in order: looked up when a command goes, as the bridges make theirs as they start.
    /// - Throws: `RigError` `.fault` when there is none.
    package func fifos() throws(RigError) -> [String] {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
            .filter { $0.hasPrefix("control-") && !$0.hasSuffix(".answers") }.sorted()
        guard !names.isEmpty else {
            throw RigError(.fault, "no radio bridge's control FIFO (control-K) in \(folder)",
                           hint: "the vm rig's bridges make them as they start: the guest's radio-K.log says why one did not")
        }
        return names.map { folder + "/" + $0 }
    }

    /// Numbers the requests of this process.
    private static let nextID = Mutex(Int.random(in: 1...1_000_000))

    /// Sends `command` to every bridge and returns each one's answer, in the FIFOs' order: what it holds once the
    /// command was carried out, or why it refused. Never blocks on a FIFO: each bridge holds its own open for reading.
    /// - Throws: `RigError` `.fault` naming the FIFO that could not be written, or the bridge that did not answer
    ///   within `timeout`.
    package func send(_ command: BridgeCommand, timeout: Duration = .seconds(5)) async throws(RigError) -> [BridgeAnswer] {
        let id = Self.nextID.withLock { id in
            id += 1
            return id
        }
        let fifos = try fifos()
        let watch: FolderWatch
        do {
            watch = try FolderWatch(folder)
        } catch {
            throw RigError(.fault, "cannot watch the radio bridges' folder \(folder) for their answers: \(error)")
        }
        defer { watch.stop() }
        let bytes = Array((BridgeCommand.request(id, command) + "\n").utf8)
        for fifo in fifos {
            do {
                let file = try FileDescriptor.open(fifo, O_WRONLY | O_NONBLOCK)
                defer { file.close() }
                try file.writeAll(bytes)
            } catch {
                throw RigError(.fault, "cannot send \"\(command)\" to the radio bridge through \(fifo): \(error)",
                               hint: "is its hil radio bridge running? the guest's radio-K.log says")
            }
        }
        let answers: [BridgeAnswer]?
        do {
            answers = try await watch.changes.upTo(timeout) { () -> [BridgeAnswer]? in
                let found = fifos.map { Self.answer(id, in: BridgeAnswer.file(forControl: $0)) }
                return found.contains { $0 == nil } ? nil : found.compactMap { $0 }
            }
        } catch {
            throw RigError(.fault, "waiting for the radio bridges' answers to \"\(command)\" was cancelled", cause: error)
        }
        guard let answers else {
            let silent = fifos.filter { Self.answer(id, in: BridgeAnswer.file(forControl: $0)) == nil }
            throw RigError(.fault, "no answer to \"\(command)\" within \(timeout) from the radio bridge of \(silent.joined(separator: ", "))",
                           hint: "is its hil radio bridge running, and does it write \(BridgeAnswer.file(forControl: silent.first ?? "control-K"))? the guest's radio-K.log says")
        }
        return answers
    }

    /// The answer numbered `id` in an answers file, if it is there yet.
    private static func answer(_ id: Int, in file: String) -> BridgeAnswer? {
        guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { return nil }
        return text.split(separator: "\n").reversed().lazy.compactMap(BridgeAnswer.init(line:)).first { $0.id == id }
    }
}
