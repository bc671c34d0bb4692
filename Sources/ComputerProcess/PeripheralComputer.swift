import Foundation
package import InputCodes
package import ScenarioDriver
import Processes
import Synchronization
import Waiting

/// The computer under test on a rig: `hil peripheral` as its own process (a fresh state folder per scenario)
/// and the frames of its uinput device, read on a thread of their own. A restart starts a new process on the
/// same state folder, with a new uinput device to read.
package final class PeripheralComputer: ComputerUnderTest {
    /// The first generation's launch; a restart starts the next generation on the same folder.
    package let launch: PeripheralUnderTest.Launch
    /// Signalled at each frame read and each file the computer writes in its folder (receipts, the pairing code).
    private let changes = Changes()
    private let folderWatch: FolderWatch
    private let state: Mutex<(current: PeripheralUnderTest, collector: FrameCollector, earlier: [PeripheralUnderTest],
                              earlierFrames: [EvdevFrame])>

    /// Starts the computer, or releases the one `prepared` for it ahead, and opens its uinput device; `phase` is
    /// told when each is done.
    package init(_ launch: PeripheralUnderTest.Launch, prepared: PeripheralUnderTest? = nil, phase: (String) -> Void = { _ in }) async throws {
        self.launch = launch
        let peripheral: PeripheralUnderTest
        if let prepared {
            try await prepared.release()
            peripheral = prepared
        } else {
            peripheral = try await PeripheralUnderTest.start(launch)
        }
        phase("peripheral registered")
        do {
            folderWatch = try FolderWatch(launch.folder, changes: changes)
            let collector = try await FrameCollector.open(launch.uinputName, grab: true, changes: changes)
            state = Mutex((peripheral, collector, [], []))
            phase("uinput device open")
        } catch {
            await peripheral.stop()
            throw error
        }
    }

    /// The current generation of the computer (a restart starts another).
    package var current: PeripheralUnderTest { state.withLock { $0.current } }

    /// Every generation, oldest first.
    package var generations: [PeripheralUnderTest] { state.withLock { $0.earlier + [$0.current] } }

    private var collector: FrameCollector { state.withLock { $0.collector } }

    package func frames(since: MonotonicTime) -> [EvdevFrame] { collector.frames(since: since) }

    package var droppedEvents: Bool { collector.dropped }

    /// How many times the kernel reported SYN_DROPPED to the current device's reader.
    package var droppedCount: Int { collector.droppedCount }

    /// Every frame of every generation's uinput device, oldest first (evdev.log).
    package var allFrames: [EvdevFrame] {
        state.withLock { $0.earlierFrames + $0.collector.frames(since: MonotonicTime(nanoseconds: 0)) }
    }

    package func heldKeys() -> [String] { collector.heldKeys() }

    /// What the kernel holds once a release in flight had `settle` to arrive: asked again at each frame, so a scenario
    /// that ends with nothing held does not wait; one that still holds a key after `settle` fails on it.
    package func heldKeys(settling settle: Duration) async throws -> [String] {
        let released: Void? = try await changes.upTo(settle) { heldKeys().isEmpty ? () : nil }
        return released == nil ? heldKeys() : []
    }

    package var changeCount: UInt64 { changes.generation }

    /// Returns once no frame came for `quiet`, or `timeout` passed: for a stream's last frames, whose end nothing
    /// announces (the files the computer writes meanwhile, its receipts flushed every 250 ms, do not count). Woken by
    /// each change, never by a timer of its own.
    /// - Returns: whether it settled (false: frames still came at `timeout`).
    /// - Throws: `CancellationError`.
    @discardableResult
    package func framesSettled(quiet: Duration, timeout: Duration) async throws -> Bool {
        let deadline = ContinuousClock.now + timeout
        var (count, since) = (collector.frameCount, ContinuousClock.now)
        while true {
            let seen = changes.generation, latest = collector.frameCount, now = ContinuousClock.now
            if latest != count { (count, since) = (latest, now) }
            if now - since >= quiet { return true }
            guard now < deadline else { return false }
            try await changes.next(after: seen, within: min(quiet - (now - since), now.duration(to: deadline)))
        }
    }

    package func awaitChange(after seen: UInt64, until deadline: MonotonicTime) async throws {
        try await changes.next(after: seen, within: deadline - .now())
    }

    package func receipts() -> [StageBreakdown.Receipt] {
        generations.flatMap { $0.receipts() }
    }

    package func pairingCode() -> String? { current.pairingCode() }

    package var log: String { current.log }

    package func restart(whileStopped: () async throws -> Void) async throws -> String {
        let old = current
        collector.stop()
        let status = await old.stop()
        try? FileManager.default.removeItem(atPath: old.codeFile)
        try await whileStopped()
        var next = launch
        next.generation = generations.count + 1
        let fresh = try await PeripheralUnderTest.start(next)
        let reader: FrameCollector
        do {
            reader = try await FrameCollector.open(launch.uinputName, grab: true, changes: changes)
        } catch {
            await fresh.stop()
            throw error
        }
        state.withLock { state in
            state.earlier.append(state.current)
            state.earlierFrames += state.collector.frames(since: MonotonicTime(nanoseconds: 0))
            state.current = fresh
            state.collector = reader
        }
        return status != 0 ? "the computer exited \(status) when stopped for its restart" : ""
    }

    /// Stops reading frames and stops the computer; its exit status.
    @discardableResult
    package func stop() async -> Int32 {
        collector.stop()
        folderWatch.stop()
        return await current.stop()
    }
}
