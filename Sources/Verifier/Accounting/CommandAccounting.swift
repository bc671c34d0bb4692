
/// Every command accounted for: the oracle written from docs/protocol.md that judges a scenario's whole run beside
/// its steps' own expectations (docs/scenarios.md, "What every run checks").
///
/// - `received`: every write the phone sent reached the computer (its receipts), but what a dropped link lost in
///   flight (the writes before the drop none of which arrived) and udp movement while the network loses packets;
/// - `refusals`: the computer took each write the document says it takes (from a paired phone, typeable) and
///   refused the others;
/// - `frames`: what its input device showed is exactly what the document makes of the writes it took, in the order
///   it applied them (`ContractComputer`, the kernel's filtering as `KernelView`), with the releases when the link
///   went: motion to the unit, every press with its release, nothing else;
/// - `order`: it applied the phone's writes in the order they were sent (udp movement apart from the control
///   connection's writes, which travel on another socket).
package struct CommandAccounting: Sendable {
    let record: AccountingRecord
    let checks: Set<RunCheck>
    let origin: UInt64

    /// - Parameter origin: the time the messages count from (the scenario's start).
    package init(_ record: AccountingRecord, checks: Set<RunCheck> = Set(RunCheck.accounting), origin: UInt64) {
        self.record = record
        self.checks = checks
        self.origin = origin
    }

    /// Every problem found, each with its step.
    package func problems() -> [AccountingProblem] {
        let aligned = alignment()
        var found: [AccountingProblem] = []
        if checks.contains(.received) { found += lost(aligned) }
        if checks.contains(.refusals) { found += refusals(aligned) }
        if checks.contains(.order) { found += order(aligned) }
        if checks.contains(.frames) { found += AccountingFrames(record: record, origin: origin).problems() }
        return found
    }

    /// Send index → receipt index: each send takes the first receipt of its payload received at or after it that no
    /// earlier send took (per payload in order: a lost write leaves its send alone without shifting the others).
    func alignment() -> [Int: Int] {
        var queues: [String: [Int]] = [:]
        for (index, receipt) in record.receipts.enumerated() {
            queues[ContractPayload.matchKey(receipt.payload), default: []].append(index)
        }
        var heads: [String: Int] = [:]
        var aligned: [Int: Int] = [:]
        for (position, send) in record.sends.enumerated() {
            guard let queue = queues[send.payload] else { continue }
            var head = heads[send.payload] ?? 0
            while head < queue.count && record.receipts[queue[head]].received < send.at { head += 1 }
            if head < queue.count {
                aligned[position] = queue[head]
                head += 1
            }
            heads[send.payload] = head
        }
        return aligned
    }

    private func lost(_ aligned: [Int: Int]) -> [AccountingProblem] {
        let downs = record.events.filter { $0.event == .linkDown }.map(\.at)
        var lossy: [(from: UInt64, to: UInt64)] = []
        for (at, _, event) in record.events {
            guard case .networkLoss(let on) = event else { continue }
            if on { lossy.append((at, .max)) } else if let open = lossy.last, open.to == .max { lossy[lossy.count - 1].to = at }
        }
        var missing: [Int: [Int]] = [:]
        for (index, send) in record.sends.enumerated() where aligned[index] == nil {
            if send.payload.hasPrefix("udp "), lossy.contains(where: { $0.from <= send.at && send.at < $0.to }) { continue }
            // In flight when the link went: every write from it up to the drop was lost too.
            if let down = downs.first(where: { $0 >= send.at }),
               !record.sends.indices.contains(where: { $0 > index && record.sends[$0].at < down && aligned[$0] != nil })
            {
                continue
            }
            missing[send.step, default: []].append(index)
        }
        return missing.keys.sorted().map { step in
            let sends = missing[step]!.map { record.sends[$0] }
            let total = record.sends.filter { $0.step == step }.count
            return AccountingProblem(step: step, "\(sends.count) of the \(total) write(s) the phone sent in this step never reached the computer (no receipt); the first: \(sends[0].payload) sent at \(stamp(sends[0].at))"
                + (sends.count > 1 ? ", the last: \(sends[sends.count - 1].payload) at \(stamp(sends[sends.count - 1].at))" : ""))
        }
    }

    private func refusals(_ aligned: [Int: Int]) -> [AccountingProblem] {
        let paired = record.events.filter { $0.event == .paired }.map(\.at).min()
        var found: [AccountingProblem] = []
        var reported = Set<Int>()
        for (index, send) in record.sends.enumerated() {
            guard let receipt = aligned[index].map({ record.receipts[$0] }), let payload = ContractPayload(text: send.payload),
                  !reported.contains(send.step)
            else { continue }
            let isPaired = record.pairedFromStart || paired.map { $0 <= send.at } == true
            let wanted = isPaired && ContractComputer.accepts(payload)
            let took = receipt.written != nil
            guard wanted != took else { continue }
            reported.insert(send.step)
            let why = !isPaired ? "the phone was not paired" : (wanted ? "docs/protocol.md says it injects it" : "it cannot be typed on a US layout")
            found.append(AccountingProblem(step: send.step, took
                ? "the computer took \(send.payload) (sent at \(stamp(send.at))), expected it refused: \(why)"
                : "the computer refused \(send.payload) (sent at \(stamp(send.at))), expected it taken: \(why)"))
        }
        return found
    }

    /// The phone's writes on ble, hid and tcp (and the udp control connection) applied in the order they were sent;
    /// udp movement in the order the computer received it: datagrams promise no order, and a network that delays
    /// some more than others (netem's jitter) hands them over in another (docs/protocol.md, "Order").
    private func order(_ aligned: [Int: Int]) -> [AccountingProblem] {
        var latest: (at: UInt64, send: Int)?
        for (index, send) in record.sends.enumerated() where !send.payload.hasPrefix("udp ") {
            guard let applied = aligned[index].flatMap({ record.receipts[$0].written?.first }) else { continue }
            if let before = latest, applied < before.at {
                let earlier = record.sends[before.send]
                return [AccountingProblem(step: send.step, "the computer applied \(send.payload) (sent at \(stamp(send.at))) before \(earlier.payload) (sent earlier, at \(stamp(earlier.at))): writes must be applied in the order they were sent (docs/protocol.md, \"Order\")")]
            }
            latest = (applied, index)
        }
        let movement = aligned.filter { record.sends[$0.key].payload.hasPrefix("udp ") }.sorted { $0.value < $1.value }
        var latestMovement: (at: UInt64, send: Int, receipt: Int)?
        for (send, receipt) in movement {
            guard let applied = record.receipts[receipt].written?.first else { continue }
            if let before = latestMovement, applied < before.at {
                let (this, earlier) = (record.receipts[receipt], record.receipts[before.receipt])
                return [AccountingProblem(step: record.sends[send].step, "the computer applied \(this.payload) (received at \(stamp(this.received))) before \(earlier.payload) (received earlier, at \(stamp(earlier.received))): udp movement must be applied in the order it arrives (docs/protocol.md, \"Order\")")]
            }
            latestMovement = (applied, send, receipt)
        }
        return []
    }

    func stamp(_ time: UInt64) -> String { AccountingFrames.stamp(time, origin: origin) }
}
