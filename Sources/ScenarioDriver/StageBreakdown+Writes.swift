
extension StageBreakdown {
    /// Every uinput write of a receipt aligned with a send, sorted by when it returned, so that each step's
    /// completing write is found by a search instead of a pass over every receipt: with a pass per step, the stages
    /// of a 46,000-step replay cost time in the square of its length (issue 39). Built once a run's receipts are in.
    package struct Writes: Sendable {
        struct Write: Sendable {
            var written: UInt64
            var send: Int
            var received: UInt64
        }

        let sends: [Send]
        /// Sorted by write time, then by send (ties broken the same way every run).
        let writes: [Write]
        /// A segment tree over `writes`: the earliest receipt of each node's range, to find the first write from a
        /// position on whose command was received by a time in O(log n).
        let earliestReceived: [UInt64]

        /// - Parameter alignment: send index → receipt index (`align`).
        package init(sends: [Send], receipts: [Receipt], alignment: [Int: Int]) {
            self.sends = sends
            var writes: [Write] = []
            for send in alignment.keys.sorted() {
                let receipt = receipts[alignment[send]!]
                for time in receipt.written ?? [] where time >= receipt.received {
                    writes.append(Write(written: time, send: send, received: receipt.received))
                }
            }
            writes.sortUnlessSorted { $0.written < $1.written || ($0.written == $1.written && $0.send < $1.send) }
            self.writes = writes
            var tree = [UInt64](repeating: .max, count: 2 * Self.leaves(writes.count))
            let leaves = Self.leaves(writes.count)
            for (position, write) in writes.enumerated() { tree[leaves + position] = write.received }
            for node in stride(from: leaves - 1, to: 0, by: -1) { tree[node] = min(tree[2 * node], tree[2 * node + 1]) }
            earliestReceived = tree
        }

        private static func leaves(_ count: Int) -> Int {
            var leaves = 1
            while leaves < count { leaves *= 2 }
            return leaves
        }

        /// The stages of a step whose first command was sent at `firstSend` and whose match was completed by the
        /// frame stamped `completed`; nil when no received command wrote that frame (`StageBreakdown.stages`).
        package func stages(firstSend: UInt64, completed: UInt64) -> Stages? {
            // The frame's write: the first uinput write that returned at or after the evdev timestamp (which has
            // microsecond resolution, so allow for its truncation), by a command received before it.
            let from = writes.partitioningIndex { $0.written + 1_000 >= completed }
            let all = 0..<Self.leaves(writes.count)
            guard let position = first(from: from, receivedBy: completed + 1_000, node: 1, range: all) else {
                return nil
            }
            let best = writes[position]
            let send = sends[best.send].at
            guard send >= firstSend else { return nil }
            func ms(_ from: UInt64, _ to: UInt64) -> Double { (Double(to) - Double(from)) / 1_000_000 }
            return Stages(gesture: ms(firstSend, send), link: ms(send, best.received),
                          peripheral: ms(best.received, best.written), kernel: ms(best.written, completed))
        }

        /// The first position at or after `from` whose command was received by `limit`, in `node`'s `range`.
        private func first(from: Int, receivedBy limit: UInt64, node: Int, range: Range<Int>) -> Int? {
            guard range.upperBound > from, range.lowerBound < writes.count, earliestReceived[node] <= limit else {
                return nil
            }
            if range.count == 1 { return range.lowerBound }
            let middle = range.lowerBound + range.count / 2
            return first(from: from, receivedBy: limit, node: 2 * node, range: range.lowerBound..<middle)
                ?? first(from: from, receivedBy: limit, node: 2 * node + 1, range: middle..<range.upperBound)
        }
    }
}
