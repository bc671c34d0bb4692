import Synchronization

/// The next scenario's computer, started ahead while the current scenario connects, and held before it creates its
/// uinput device or touches the bus (`PeripheralUnderTest.prepare`), so a process start is not spent between
/// scenarios. Only the scenario it was started for takes it; any other stops it and starts its own. It still is a
/// fresh process with a fresh state folder: nothing of one scenario's computer reaches the next.
package final class StandbyComputer: Sendable {
    private let slot = Mutex<PeripheralUnderTest?>(nil)

    package init() {}

    /// Starts the computer for `launch` and holds it; one that was waiting already is stopped.
    package func prepare(_ launch: PeripheralUnderTest.Launch) async {
        await discard()
        // A computer that cannot even be spawned fails again, with its reason, when its scenario starts it.
        guard let peripheral = try? PeripheralUnderTest.prepare(launch) else { return }
        slot.withLock { $0 = peripheral }
    }

    /// The computer prepared for `launch`, if that is the one waiting and it still runs (nil otherwise: start one),
    /// and what became of one that exited while it waited.
    package func take(for launch: PeripheralUnderTest.Launch) async -> (computer: PeripheralUnderTest?, note: String?) {
        guard let waiting = empty() else { return (nil, nil) }
        var expected = launch
        expected.held = true
        guard waiting.launch == expected else {
            await waiting.stop()
            return (nil, nil)
        }
        if let ended = waiting.child.termination {
            _ = await waiting.stop()
            return (nil, "rig: the computer started ahead for this scenario \(ended) while it was held; a fresh one was started\n")
        }
        return (waiting, nil)
    }

    /// Stops the computer that is waiting, if any.
    package func discard() async {
        await empty()?.stop()
    }

    private func empty() -> PeripheralUnderTest? {
        slot.withLock { slot in
            defer { slot = nil }
            return slot
        }
    }
}
