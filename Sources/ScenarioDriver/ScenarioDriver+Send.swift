import GestureScript

extension ScenarioDriver {
    /// A `send` step: each item handed to the link as it is, at its time from the step's start (`start` on the
    /// gesture timeline), stamped when handed over as the gesture model's commands are; while the link is down
    /// the items are logged as not sent.
    func sendItems(_ items: [SendItem], from start: Duration) async throws {
        for item in items {
            try await runTimers(before: start + item.at)
            try await sleep(until: start + item.at)
            try await handOver(item.payload.description) {
                try await phone.sendRecordedStamped(item.payload, confirmed: scenario.run.confirmedWrites)
            }
        }
    }
}
