/// Which steps' link stages the rule judges, and from where each starts, from a scenario's sends and receipts.
extension StageRule {
    /// A scenario's writes as the link rule needs them: when the phone handed each over (`sends`, with its payload)
    /// and when the computer received each (`receipts`).
    package struct LinkEvidence: Sendable {
        /// Send times that several writes share: a command that goes as several writes (a hid click's reports, each
        /// with response) stamps them all when it was handed over, and a later one's link stage holds its wait for
        /// the ones before. A step whose first write is one of them is not judged.
        let sharedStamps: Set<UInt64>
        /// The scenario's first send: it follows the link's set-up (connect, MTU, discovery, the acquired write and
        /// the mode write) and pays for bluetoothd's first request on the connection, as the computer's first write
        /// of a kind pays for its code's first run, so it is not judged (seen in debug control runs: 116.6 and
        /// 235.6 ms, each a scenario's first write, every later one within its model).
        let firstSend: UInt64?
        /// Receipts of writes the phone's link made on its own (in no send: its mode after a connect).
        let linkWrites: [UInt64]

        package init(sends: [(at: UInt64, payload: String)], receipts: [(received: UInt64, payload: String)]) {
            var perStamp: [UInt64: Int] = [:]
            for send in sends { perStamp[send.at, default: 0] += 1 }
            sharedStamps = Set(perStamp.filter { $0.value > 1 }.keys)
            firstSend = sends.map(\.at).min()
            let sent = Set(sends.map(\.payload))
            linkWrites = receipts.filter { !sent.contains($0.payload) }.map(\.received)
        }

        /// The link stage the rule judges for a step whose first write was handed over at `sent` and took `ms` to
        /// arrive (`linkStage`: from the last of the link's own writes it queued behind); nil when the step is not
        /// judged. A step whose send time is unknown (`sent` nil) is judged on `ms` as measured.
        package func judged(ms: Double, sent: UInt64?) -> Double? {
            guard let sent else { return ms }
            // Stamps within 2 ns are one: a send time rebuilt from a step's first send and its gesture stage rounds.
            if sharedStamps.contains(where: { $0 + 2 >= sent && $0 <= sent + 2 }) { return nil }
            if let firstSend, sent <= firstSend + 2 { return nil }
            return StageRule.linkStage(ms: ms, sent: sent, linkWrites: linkWrites)
        }
    }
}
