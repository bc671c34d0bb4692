package import Evdev
package import InputCodes
import Foundation
import ScenarioDriver
import Synchronization
package import Waiting

/// Reads the uinput device's frames on a thread of its own, so the phone's real-time driving never waits
/// on the reader; remembers SYN_DROPPED (the scenario is then inconclusive).
package final class FrameCollector: @unchecked Sendable {
    // Safety: `reader` is used only by the collecting thread after init (and by `heldKeys`, which opens its own
    // descriptor); shared state is in `state`.
    private let reader: EvdevReader
    private let state = Mutex(State())
    /// Signalled at each frame read, and when the reader ends.
    package let changes: Changes

    package struct State {
        package var frames: [EvdevFrame] = []
        package var dropped = false
        package var droppedCount = 0
        package var stopped = false
        package var error: String?
    }

    /// - Parameter changes: signalled at each frame read and when the reader ends (pass one to share it).
    package init(reader: EvdevReader, changes: Changes = Changes()) {
        self.reader = reader
        self.changes = changes
        let thread = Thread { [self] in
            defer { changes.signal() }
            Self.keepUp()
            while !state.withLock({ $0.stopped }) {
                do throws(EvdevError) {
                    if let frame = try self.reader.nextFrame(timeout: .milliseconds(50)) {
                        state.withLock { $0.frames.append(frame) }
                        changes.signal()
                    }
                } catch where error.code == .dropped {
                    state.withLock {
                        $0.dropped = true
                        $0.droppedCount += 1
                    }
                } catch {
                    state.withLock { state in
                        state.error = error.description
                        state.stopped = true
                    }
                }
            }
        }
        thread.name = "evdev-collector"
        thread.start()
    }

    /// The reader at real-time priority where this process may have it (root, as the vm guest's jobs are): a burst
    /// (a 200-character `text`: 400 frames within milliseconds) outruns the kernel's buffer for one reader (128
    /// events for the computer's device) while a reader of normal priority waits for a CPU, and in the TCG guest it
    /// did (SYN_DROPPED). It blocks in poll between frames, so it takes no CPU from anyone else. Elsewhere it keeps
    /// its priority.
    private static func keepUp() {
        var parameters = sched_param()
        parameters.sched_priority = 10
        _ = pthread_setschedparam(pthread_self(), SCHED_FIFO, &parameters)
    }

    /// Waits (at most 10 s) for the uinput device named `uinputName` to appear and reads it; `grab`: EVIOCGRAB, so
    /// the desktop does not act on a scenario's events (a live recording leaves the device to it).
    package static func open(_ uinputName: String, grab: Bool, changes: Changes = Changes()) async throws -> FrameCollector {
        let node = try await EvdevReader.waitForDevice(named: uinputName, timeout: .seconds(10))
        return FrameCollector(reader: try EvdevReader(devnode: node, grab: grab), changes: changes)
    }

    /// Frames that arrived at or after `since`. The kernel stamps a device's frames in the order it reports them
    /// (CLOCK_MONOTONIC), so `frames` is sorted by time and the first one is found by binary search: a poll late
    /// in a long run costs what it returns, not every frame of the run.
    package func frames(since: MonotonicTime) -> [EvdevFrame] {
        state.withLock { state in Array(state.frames[state.frames.partitioningIndex { $0.time >= since }...]) }
    }

    /// How many frames were read so far.
    package var frameCount: Int { state.withLock { $0.frames.count } }

    package var dropped: Bool { state.withLock { $0.dropped } }
    /// How many times the kernel reported SYN_DROPPED (the reader fell behind and events were lost to it).
    package var droppedCount: Int { state.withLock { $0.droppedCount } }
    package var failure: String? { state.withLock { $0.error } }

    package func heldKeys() -> [String] {
        ((try? reader.heldKeys()) ?? []).map(\.description)
    }

    /// The reader has ended: stopped, or the device went away (what it held until then is in `frames`).
    package var hasEnded: Bool { state.withLock { $0.stopped } }

    /// Waits until the reader has ended by itself (its device went away), at most `timeout`; whether it did.
    /// - Throws: `CancellationError` when the task is cancelled.
    package func end(within timeout: Duration) async throws -> Bool {
        try await changes.upTo(timeout) { hasEnded ? () : nil } != nil
    }

    package func stop() {
        state.withLock { $0.stopped = true }
    }
}
