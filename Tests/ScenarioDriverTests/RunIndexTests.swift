import HILTestSupport
import InputCodes
import RemoteTouchProtocol
import ScenarioDriver
import Testing

/// The indexes that let a long replay grow linearly (issue 39) give what a pass over every send, receipt and
/// frame gives, on random runs: each test's oracle is the pass the index replaced.
@Suite("Run indexes agree with a pass over everything")
struct RunIndexTests {
    static let ms: UInt64 = 1_000_000

    /// A run of `count` sends over three payloads, most received 0–5 ms later (some before they were sent, some
    /// refused, some never), each received one's frames written up to 2 ms later (some stamped before it was
    /// received), and receipts no send explains.
    static func run(_ count: Int, seed: UInt64) -> (sends: [StageBreakdown.Send], receipts: [StageBreakdown.Receipt]) {
        var random = SplitMix64(seed: seed)
        var sends: [StageBreakdown.Send] = []
        var receipts: [StageBreakdown.Receipt] = []
        var now = 10 * ms
        for _ in 0..<count {
            now += UInt64.random(in: 0...(3 * ms), using: &random)
            let payload = ["a", "b", "c"].randomElement(using: &random)!
            sends.append(.init(at: now, payload: payload))
            let fate = Int.random(in: 0..<10, using: &random)
            guard fate > 0 else { continue }
            let received = fate == 1 ? now - UInt64.random(in: 1...ms, using: &random) : now + UInt64.random(in: 0...(5 * ms), using: &random)
            let written: [UInt64]? = fate == 2 ? nil : (0..<Int.random(in: 0...3, using: &random)).map { _ in
                received + UInt64.random(in: 0...(2 * ms), using: &random) - (fate == 3 ? ms / 2 : 0)
            }
            receipts.append(.init(received: received, written: written, payload: payload))
            if fate == 4 { receipts.append(.init(received: received + 1, written: nil, payload: "udp aa0005fb00")) }
        }
        return (sends, receipts.sorted { $0.received < $1.received })
    }

    /// `StageBreakdown.stages` as it was: every aligned receipt's writes for each step; of writes returned at the
    /// same time, the lowest send's.
    static func stagesByPass(firstSend: UInt64, completed: UInt64, sends: [StageBreakdown.Send],
                             receipts: [StageBreakdown.Receipt], alignment: [Int: Int]) -> StageBreakdown.Stages?
    {
        var best: (send: Int, written: UInt64)?
        for (sendIndex, receiptIndex) in alignment.sorted(by: { $0.key < $1.key }) {
            let receipt = receipts[receiptIndex]
            guard receipt.received <= completed + 1_000, let written = receipt.written else { continue }
            for time in written where time + 1_000 >= completed && time >= receipt.received {
                if best == nil || time < best!.written { best = (sendIndex, time) }
            }
        }
        guard let best, let receiptIndex = alignment[best.send], sends[best.send].at >= firstSend else { return nil }
        let send = sends[best.send].at, received = receipts[receiptIndex].received
        func ms(_ from: UInt64, _ to: UInt64) -> Double { (Double(to) - Double(from)) / 1_000_000 }
        return .init(gesture: ms(firstSend, send), link: ms(send, received), peripheral: ms(received, best.written),
                     kernel: ms(best.written, completed))
    }

    @Test("a step's completing write and its stages, for any completion time", arguments: [1, 2, 3, 4] as [UInt64])
    func stages(seed: UInt64) {
        let (sends, receipts) = Self.run(400, seed: seed)
        let alignment = StageBreakdown.align(sends, receipts)
        let writes = StageBreakdown.Writes(sends: sends, receipts: receipts, alignment: alignment)
        var random = SplitMix64(seed: seed + 100)
        var found = 0
        for _ in 0..<500 {
            // Half of the times on a boundary: a write's time, or 1 µs (the evdev stamp's truncation) either side.
            let write = receipts.compactMap(\.written).flatMap { $0 }.randomElement(using: &random)!
            let completed = Bool.random(using: &random)
                ? UInt64.random(in: 0...(sends.last!.at + 10 * Self.ms), using: &random)
                : write + [0, 1_000, 1_001].randomElement(using: &random)! - [0, 1_000, 1_001].randomElement(using: &random)!
            let firstSend = Bool.random(using: &random) ? 0 : sends.randomElement(using: &random)!.at
            let expected = Self.stagesByPass(firstSend: firstSend, completed: completed, sends: sends, receipts: receipts, alignment: alignment)
            #expect(writes.stages(firstSend: firstSend, completed: completed) == expected, "completed \(completed), first send \(firstSend)")
            if expected != nil { found += 1 }
        }
        #expect(found > 100, "the random run must exercise found stages, not only nil")
    }

    /// `StepReceipts.during` as it was: every aligned send and every receipt for each step.
    static func duringByPass(_ window: ScenarioDriver.StepWindow, nextStart: MonotonicTime?, sends: [StageBreakdown.Send],
                             receipts: [StageBreakdown.Receipt], alignment: [Int: Int]) -> [StageBreakdown.Receipt]
    {
        let start = window.start.nanoseconds
        var taken = Set<Int>()
        for (send, receipt) in alignment where (start...window.end.nanoseconds).contains(sends[send].at) { taken.insert(receipt) }
        let explained = Set(alignment.values)
        let end = max(window.end.nanoseconds, nextStart.map { $0.nanoseconds - 1 } ?? .max)
        for (index, receipt) in receipts.enumerated() where !explained.contains(index) && (start...end).contains(receipt.received) {
            taken.insert(index)
        }
        return taken.sorted().map { receipts[$0] }
    }

    @Test("a step's receipts: its sends' however late, unexplained ones by time", arguments: [5, 6, 7] as [UInt64])
    func stepReceipts(seed: UInt64) {
        let (sends, receipts) = Self.run(400, seed: seed)
        let alignment = StageBreakdown.align(sends, receipts)
        let index = StepReceipts(sends: sends, receipts: receipts, alignment: alignment)
        var random = SplitMix64(seed: seed + 100)
        for _ in 0..<300 {
            // Windows that start or end on a send or a receipt, and windows anywhere.
            let start = [UInt64.random(in: 0...sends.last!.at, using: &random), sends.randomElement(using: &random)!.at,
                         receipts.randomElement(using: &random)!.received].randomElement(using: &random)!
            let end = [start + UInt64.random(in: 0...(40 * Self.ms), using: &random), max(start, sends.randomElement(using: &random)!.at),
                       max(start, receipts.randomElement(using: &random)!.received)].randomElement(using: &random)!
            let window = ScenarioDriver.StepWindow(start: MonotonicTime(nanoseconds: start), end: MonotonicTime(nanoseconds: end))
            let next = Bool.random(using: &random) ? nil
                : MonotonicTime(nanoseconds: max(end, receipts.randomElement(using: &random)!.received) + UInt64.random(in: 0...1, using: &random))
            let expected = Self.duringByPass(window, nextStart: next, sends: sends, receipts: receipts, alignment: alignment)
            #expect(index.during(window, nextStart: next) == expected, "window \(start)–\(end), next \(String(describing: next))")
        }
    }

    @Test("the offline computer's frames since a time are the ones a filter over all of them finds")
    func offlineFrames() async throws {
        let clock = VirtualClock()
        let computer = OfflineComputer(clock: clock)
        let link = OfflineLink(computer: computer, clock: clock)
        _ = try await link.connect()
        try await link.requestPairing()
        #expect(try await link.enterCode("123456").refusal == nil)
        var random = SplitMix64(seed: 8)
        for index in 0..<200 {
            try await clock.sleep(until: MonotonicTime(nanoseconds: clock.now().nanoseconds + UInt64.random(in: 0...(3 * Self.ms), using: &random)))
            let command = index % 3 == 0 ? Command.tap(type: .single) : .cursorMove(delta: Point(x: Double(index % 7 - 3), y: 1))
            _ = try await link.send(command, confirmed: false)
        }
        let all = computer.frames(since: MonotonicTime(nanoseconds: 0))
        #expect(all.count > 200)
        for _ in 0..<200 {
            let since = Bool.random(using: &random) ? all.randomElement(using: &random)!.time
                : MonotonicTime(nanoseconds: UInt64.random(in: 0...(clock.now().nanoseconds + 1000), using: &random))
            #expect(computer.frames(since: since) == all.filter { $0.time >= since }, "since \(since)")
        }
    }
}
