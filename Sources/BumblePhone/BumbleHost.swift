import Foundation
package import InputCodes
package import PhoneLinks
package import Processes
package import StrictJSON
import Synchronization
package import System
package import Waiting

/// The Bumble phone's process (`Rigs/bumble/phone.py`, docs/bumble-phone.md): one for a run, as importing Bumble
/// takes 7–25 s in the vm guest. Requests go as lines `ID VERB ARG…` on its stdin; its stdout's lines are replies
/// (`id`) and events (`event`), read on a thread of their own and announced on `changes`. What it printed last is
/// kept, so a phone that dies names its last words in the scenario's error.
package final class BumbleHost: Sendable {
    /// One line from the phone: a reply or an event, with the time it was written (CLOCK_MONOTONIC ns).
    package struct Line: Sendable {
        package var object: JSONObject
        package var t: UInt64

        package var event: String? { object["event"].flatMap { if case .string(let s) = $0 { s } else { nil } } }
        package func string(_ key: String) -> String? { object[key].flatMap { if case .string(let s) = $0 { s } else { nil } } }
        package func number(_ key: String) -> Double? { object[key].flatMap { if case .number(let n) = $0 { n } else { nil } } }
    }

    private struct State {
        var replies: [String: Line] = [:]
        var events: [Line] = []
        var last: [String] = []
        var ended = false
        var endedAt: MonotonicTime?
        var nextID = 0
    }

    /// Where it runs: the project's phone.py with the venv's Python.
    package struct Program: Sendable, Hashable {
        package var python: String
        package var script: String

        /// The checkout's `.venv-bumble` and `Rigs/bumble/phone.py` (Rigs/setup.sh installs the first).
        package init(projectRoot: String) {
            python = projectRoot + "/.venv-bumble/bin/python"
            script = projectRoot + "/Rigs/bumble/phone.py"
        }

        /// Why it cannot run here, with the command that installs it; nil when it can.
        package var missing: String? {
            guard FileManager.default.isExecutableFile(atPath: python) else {
                return "the Bumble phone is not installed (no \(python)): run `bash Rigs/setup.sh`, which installs Rigs/bumble/requirements.txt into .venv-bumble"
            }
            guard FileManager.default.fileExists(atPath: script) else { return "no \(script): the checkout is incomplete" }
            return nil
        }
    }

    private let child: ChildProcess
    private let input: FileDescriptor
    private let state = Mutex(State())
    /// Signalled at every line the phone writes, and when it ends.
    package let changes = Changes()
    /// How long to wait for a reply beyond a request's own timeout (the vm guest's Python is slow).
    package let latencyScale: Double

    /// Starts the phone and waits for `ready` (Bumble imported).
    /// - Throws: `LinkError` `.link` when it cannot start or says nothing in time, with its last lines.
    package static func start(_ program: Program, latencyScale: Double, log: String?) async throws -> BumbleHost {
        if let missing = program.missing { throw LinkError(.link, missing) }
        let pipe: (readEnd: FileDescriptor, writeEnd: FileDescriptor)
        do { pipe = try FileDescriptor.pipe() } catch { throw LinkError(.link, "cannot start the Bumble phone: pipe: \(error)") }
        let arguments = [program.script] + (log.map { ["--snoop", $0] } ?? [])
        let child: ChildProcess
        do {
            child = try ChildProcess(program.python, arguments, input: pipe.readEnd, output: .separate, ownProcessGroup: true)
        } catch {
            pipe.readEnd.close()
            pipe.writeEnd.close()
            throw LinkError(.link, "cannot start the Bumble phone: \(error)", cause: error)
        }
        pipe.readEnd.close()
        let host = BumbleHost(child: child, input: pipe.writeEnd, latencyScale: latencyScale)
        let ready = try? await host.changes.upTo(.seconds(90) * latencyScale) { () -> Bool? in
            host.state.withLock { state in state.ended ? false : state.events.contains { $0.event == "ready" } ? true : nil }
        }
        guard ready == true else {
            await host.stop()
            throw LinkError(.link, "the Bumble phone did not become ready (\(ready == false ? "it exited" : "no `ready` within \(Int(90 * latencyScale)) s")); its last lines:\n\(host.lastLines)")
        }
        return host
    }

    private init(child: ChildProcess, input: FileDescriptor, latencyScale: Double) {
        self.child = child
        self.input = input
        self.latencyScale = latencyScale
        for (handle, isOutput) in [(child.output, true), (child.errorOutput, false)] {
            guard let handle else { continue }
            let thread = Thread { [self] in read(handle, isOutput: isOutput) }
            thread.name = "hil: bumble phone \(isOutput ? "stdout" : "stderr")"
            thread.stackSize = 256 * 1024
            thread.start()
        }
    }

    /// True once the phone exited (or closed its output).
    package var hasEnded: Bool { state.withLock { $0.ended } }

    /// When the phone's output ended (it exited, or was killed), on CLOCK_MONOTONIC; nil while it runs.
    package var endedAt: MonotonicTime? { state.withLock { $0.endedAt } }

    /// The phone's last lines (replies, events, anything on its stderr), for errors.
    package var lastLines: String { state.withLock { $0.last.suffix(15).joined(separator: "\n") } }

    /// Sends `verb` with `arguments` and waits for its reply.
    /// - Returns: the reply, ok or not (`ok`, `error`, `attErrorName`: the caller decides what a refusal means).
    /// - Throws: `LinkError` `.timeout` with no reply in `timeout` (scaled), `.link` when the phone ended, both with
    ///   its last lines.
    package func request(_ verb: String, _ arguments: [String] = [], timeout: Duration) async throws -> Line {
        let id = state.withLock { state in
            state.nextID += 1
            return "r\(state.nextID)"
        }
        let line = ([id, verb] + arguments).joined(separator: " ") + "\n"
        do {
            guard !hasEnded else { throw Errno(rawValue: EPIPE) }
            try input.writeAll(Array(line.utf8))
        } catch {
            // Its reader notices the end at once: the last lines are whole then.
            _ = try? await changes.upTo(.seconds(1)) { hasEnded ? true : nil }
            throw LinkError(.link, "the Bumble phone's process exited before \(verb) (\(error)); its last lines:\n\(lastLines)")
        }
        let reply = try await changes.upTo(timeout * latencyScale) { () -> Line?? in
            state.withLock { state in
                if let reply = state.replies.removeValue(forKey: id) { return .some(reply) }
                return state.ended ? .some(nil) : nil
            }
        }
        guard let reply else {
            throw LinkError(.timeout, "the Bumble phone did not answer \(verb) within \(timeout * latencyScale); its last lines:\n\(lastLines)")
        }
        guard let reply else {
            throw LinkError(.link, "the Bumble phone's process exited during \(verb); its last lines:\n\(lastLines)")
        }
        return reply
    }

    /// Sends `verb` and returns its reply when it is ok.
    /// - Throws: `LinkError` `.link` with the phone's own sentence when not, as `request` otherwise.
    package func ok(_ verb: String, _ arguments: [String] = [], timeout: Duration = .seconds(20)) async throws -> Line {
        let reply = try await request(verb, arguments, timeout: timeout)
        guard reply.object["ok"] == .bool(true) else {
            throw LinkError(.link, "the Bumble phone's \(verb) failed: \(reply.string("error") ?? "no reason given")")
        }
        return reply
    }

    /// The events from position `from` on (`eventCount` marks a position).
    package func events(from: Int) -> ArraySlice<Line> { state.withLock { $0.events[min(from, $0.events.count)...] } }
    package var eventCount: Int { state.withLock { $0.events.count } }

    /// Waits up to `timeout` for an event named `name` after position `from`; nil when none came (or the phone ended).
    package func awaitEvent(_ name: String, after from: Int, timeout: Duration) async throws -> Line? {
        try await changes.upTo(timeout) { () -> Line?? in
            state.withLock { state in
                if let found = state.events[min(from, state.events.count)...].first(where: { $0.event == name }) { return .some(found) }
                return state.ended ? .some(nil) : nil
            }
        } ?? nil
    }

    /// Closes the phone (its link down, the adapter back to bluetoothd), or ends it when it does not answer.
    package func stop() async {
        if !hasEnded { _ = try? await request("close", ["5"], timeout: .seconds(15)) }
        input.close()
        _ = await child.teardown([.wait(.seconds(5)), .signal(SIGTERM), .wait(.seconds(5)), .kill])
    }

    /// Reads lines to the end: replies by id, events in order, the last lines kept.
    private func read(_ handle: FileHandle, isOutput: Bool) {
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(handle.fileDescriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            pending += buffer[0..<count]
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                take(String(decoding: pending[..<newline], as: UTF8.self), isOutput: isOutput)
                pending.removeSubrange(...newline)
            }
        }
        if isOutput {
            state.withLock { state in
                state.ended = true
                state.endedAt = MonotonicTime.now()
            }
        }
        changes.signal()
    }

    private func take(_ text: String, isOutput: Bool) {
        state.withLock { state in
            state.last.append(isOutput ? text : "stderr: " + text)
            if state.last.count > 60 { state.last.removeFirst(state.last.count - 60) }
            guard isOutput, case .object(let object)? = try? JSONParser().parse(text) else { return }
            var t: UInt64 = 0
            if case .number(let n)? = object["t"], n > 0 { t = UInt64(n) }
            let line = Line(object: object, t: t)
            if case .string(let id)? = object["id"] {
                state.replies[id] = line
            } else {
                state.events.append(line)
            }
        }
        changes.signal()
    }
}
