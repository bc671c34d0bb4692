package import Records

/// Splits a step's latency at the command whose frame completed its match: the gesture's own span, the link,
/// the peripheral and the kernel (docs/results-format.md). Pure: fed with the phone's sends and the
/// peripheral's receipts (`hil peripheral --receipts-log`), all on CLOCK_MONOTONIC in nanoseconds.
package enum StageBreakdown {
    package struct Send: Sendable, Hashable {
        package var at: UInt64
        package var payload: String
        package init(at: UInt64, payload: String) {
            self.at = at
            self.payload = payload
        }
    }

    /// A write the computer received, from its receipts log (the format is `ReceiptLine`'s).
    package typealias Receipt = ReceiptLine

    package struct Stages: Sendable, Hashable {
        package var gesture: Double
        package var link: Double
        package var peripheral: Double
        package var kernel: Double

        package init(gesture: Double, link: Double, peripheral: Double, kernel: Double) {
            self.gesture = gesture
            self.link = link
            self.peripheral = peripheral
            self.kernel = kernel
        }

        package static let names = ["gesture", "link", "peripheral", "kernel"]
        package var values: [Double] { [gesture, link, peripheral, kernel] }
        /// The stages by name, as a step's result keeps them (`StepResult.stagesMs`).
        package var byStage: [LatencyStage: Double] { [.gesture: gesture, .link: link, .peripheral: peripheral, .kernel: kernel] }
    }

    /// The i-th send's receipt index. Sends and receipts with the same payload are matched in order (bluetoothd
    /// may hand some writes over D-Bus and others through the acquired socket, so receipts can arrive out of
    /// order between payloads), never to a receipt from before the send: a lost write leaves its send unmatched
    /// instead of shifting the later ones.
    package static func align(_ sends: [Send], _ receipts: [Receipt]) -> [Int: Int] {
        var heads: [String: Int] = [:]
        return pairInOrder(sends.map { (Optional($0.payload), $0.at) }, receipts.map { ($0.payload, $0.received) }, heads: &heads)
    }

    /// Pairs each send (its position in `sends`) with the first item of the same key stamped at or after it that
    /// no earlier send took: per key in order, so items may arrive out of order between keys, and a send whose
    /// item never came stays unpaired without shifting the others. Items of a key stamped before a send belong to
    /// earlier, unpaired sends and are passed over. A send or an item with a nil key pairs with nothing. `heads` carries, per
    /// key, how many of its items (in `items` order) earlier calls took or passed over, for callers that pair a
    /// growing list in parts (`hil soak`, a minute at a time).
    package static func pairInOrder<Key: Hashable>(_ sends: [(key: Key?, at: UInt64)], _ items: [(key: Key?, at: UInt64)],
                                           heads: inout [Key: Int]) -> [Int: Int]
    {
        var queues: [Key: [Int]] = [:]
        for (index, item) in items.enumerated() {
            if let key = item.key { queues[key, default: []].append(index) }
        }
        var paired: [Int: Int] = [:]
        for (position, send) in sends.enumerated() {
            guard let key = send.key, let queue = queues[key] else { continue }
            var head = heads[key] ?? 0
            while head < queue.count && items[queue[head]].at < send.at { head += 1 }
            if head < queue.count {
                paired[position] = queue[head]
                head += 1
            }
            heads[key] = head
        }
        return paired
    }

    /// The stages of a step whose first command was sent at `firstSend` and whose match was completed by the
    /// frame stamped `completed`; nil when no received command wrote that frame. For many steps of one run, build
    /// `Writes` once and ask it for each.
    package static func stages(firstSend: UInt64, completed: UInt64, sends: [Send], receipts: [Receipt],
                              alignment: [Int: Int]) -> Stages?
    {
        let writes = Writes(sends: sends, receipts: receipts, alignment: alignment)
        return writes.stages(firstSend: firstSend, completed: completed)
    }
}
