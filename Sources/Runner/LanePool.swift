package import BumblePhone
package import RunContext
package import Scenario
import Synchronization
package import Records

/// Runs scenarios on every lane of the rig at once (a lane: one computer adapter, one phone adapter, its own
/// uinput device name; `RunContext.lane`). Each lane takes the next scenario from one queue and
/// reserves the one after, so its computer starts ahead (`StandbyComputer`). A scenario that touches what all
/// lanes share (it restarts or floods bluetoothd, which serves every adapter) runs alone, the other lanes idle.
/// One lane runs everything in the given order, as before.
package final class LanePool: Sendable {
    /// One scenario run: its number in the run (1…), its repeat, where it is in the scenario list, and the
    /// transport it runs on.
    package struct Item: Sendable {
        package var number: Int
        package var repetition: Int
        package var index: Int
        package var scenario: Scenario
        package var transport: Transport

        package init(number: Int, repetition: Int, index: Int, scenario: Scenario, transport: Transport = .ble) {
            self.number = number
            self.repetition = repetition
            self.index = index
            self.scenario = scenario
            self.transport = transport
        }
    }

    private let runners: [ScenarioRunner]

    /// One runner per lane context; `bumble`: the run's Bumble phones, for the scenarios that run on one.
    package init(lanes: [RunContext], bumble: BumblePhones? = nil) {
        precondition(!lanes.isEmpty, "a lane pool needs a lane")
        runners = lanes.map { ScenarioRunner(context: $0, bumble: bumble) }
    }

    /// True when the scenario must have the rig to itself: it restarts bluetoothd, which every lane uses, or floods
    /// it with malformed writes (seen to delay the other lane's writes by seconds and fail them with ATT error 0x0e).
    package static func needsTheWholeRig(_ scenario: Scenario) -> Bool {
        scenario.script.steps.contains { step in
            switch step {
            case .restartBluetoothd, .malformedWrites: true
            default: false
            }
        }
    }

    /// True when the item must have the rig to itself: its scenario does (`needsTheWholeRig`), or it runs over the
    /// network, whose hosts every lane shares (one computer host, its ports, one Bonjour name).
    package static func runsAlone(_ item: Item) -> Bool {
        item.transport.isNetwork || needsTheWholeRig(item.scenario)
    }

    /// The order of work: with one lane, the items as given, in one batch. With more, per repeat: the scenarios
    /// that can share the rig as one batch run on every lane, then each that cannot, alone.
    package func batches(_ items: [Item]) -> [[Item]] {
        guard runners.count > 1 else { return [items] }
        var batches: [[Item]] = []
        for repetition in Set(items.map(\.repetition)).sorted() {
            let round = items.filter { $0.repetition == repetition }
            let shared = round.filter { !Self.runsAlone($0) }
            if !shared.isEmpty { batches.append(shared) }
            batches += round.filter(Self.runsAlone).map { [$0] }
        }
        return batches
    }

    /// Runs every item; `finished` is called as each ends (from any lane, one at a time). Stops taking new items
    /// once `stop` says so; the scenarios under way finish (the interrupt stops their computers).
    package func run(_ items: [Item], stop: @escaping @Sendable () -> Bool,
                    finished: @escaping @Sendable (Item, ScenarioResult) -> Void) async
    {
        let announce = OneAtATime(finished)
        for batch in batches(items) {
            if stop() { break }
            let queue = Queue(batch[...])
            await withTaskGroup(of: Void.self) { group in
                for runner in runners.prefix(batch.count) {
                    group.addTask { await Self.lane(runner, queue: queue, stop: stop, finished: announce.call) }
                }
            }
        }
        for runner in runners { await runner.finish() }
    }

    /// One lane's loop: take an item, reserve the next (its computer starts ahead), run, repeat.
    private static func lane(_ runner: ScenarioRunner, queue: Queue, stop: @Sendable () -> Bool,
                             finished: @Sendable (Item, ScenarioResult) -> Void) async
    {
        var current = queue.take()
        while let item = current, !stop() {
            let next = queue.take()
            let result = await runner.run(
                item.scenario, number: item.number, transport: item.transport, next: next.map { ($0.scenario, $0.number, $0.transport) })
            finished(item, result)
            current = next
        }
    }

    /// `finished`, called by one lane at a time, so a scenario's lines are never interleaved with another's.
    private final class OneAtATime: Sendable {
        let lock = Mutex(())
        let body: @Sendable (Item, ScenarioResult) -> Void
        init(_ body: @escaping @Sendable (Item, ScenarioResult) -> Void) { self.body = body }
        func call(_ item: Item, _ result: ScenarioResult) { lock.withLock { _ in body(item, result) } }
    }

    /// The items of a batch not taken yet, shared by the lanes.
    private final class Queue: Sendable {
        let items: Mutex<ArraySlice<Item>>
        init(_ items: ArraySlice<Item>) { self.items = Mutex(items) }
        func take() -> Item? { items.withLock { $0.popFirst() } }
    }
}
