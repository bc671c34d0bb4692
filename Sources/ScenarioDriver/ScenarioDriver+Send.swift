import GestureScript

extension ScenarioDriver {
    /// A `send` step: each item handed to the link as it is, at its time from the step's start (`start` on the
    /// gesture timeline), stamped when handed over as the gesture model's commands are; while the link is down
    /// the items are logged as not sent. Items at the same time are handed over back to back and leave together
    /// where the link frames its writes (`PhoneLink.holdFrames`: one tcp frame).
    func sendItems(_ items: [SendItem], from start: Duration) async throws {
        var next = items.startIndex
        while next < items.endIndex {
            let at = items[next].at
            let group = items[next...].prefix { $0.at == at }
            next += group.count
            try await runTimers(before: start + at)
            try await sleep(until: start + at)
            if group.count > 1 { phone.holdFrames() }
            do {
                for item in group {
                    try await handOver(item.payload.description) {
                        try await phone.sendRecordedStamped(item.payload, confirmed: scenario.run.confirmedWrites)
                    }
                }
            } catch {
                if group.count > 1 { try? phone.releaseFrames() }
                throw error
            }
            if group.count > 1 { try phone.releaseFrames() }
        }
    }
}
