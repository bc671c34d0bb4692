import Foundation

/// The time rules every run judges beside a scenario's own deadlines (docs/scenarios.md, "What every run checks"):
/// what a run measures, a rule judges.
///
/// - **The computer's own stage** (a write received → its first frame written to uinput): every write within
///   `computerMaxMs`, and the median of the writes within `computerMedianMs` (judged from ten writes on). Stated per
///   rig and build (a rig file's `stageLimits`), independent of the radio and unscaled. The first write of each kind
///   (a command's case, a hid report, a udp packet) a computer process handles is not judged: it pays for its code's
///   first run (symbols bound on first use, and in the vm rig's TCG the code translated: a process's first write took
///   3.4 ms at the median and up to 25 ms in a release build, over 200 ms on a loaded machine in a debug one; the
///   next of its kind 0.23 ms).
/// - **The link stage** of each judged step (the phone handing its completing write over → the computer receiving
///   it) within what the link's model explains: on a radio of interval I with packet error rate P, the wait for the
///   next connection event (at most I), one more event for a phone host that missed it, I for each event closed by
///   two failed tries in a row (as many as happen with a chance above 1e-4), plus the hosts' share `linkHostMs` ×
///   the rig's latency scale (bluetoothd, D-Bus, the kernel: what the rig cannot model); on the network, the netem
///   delay and three times its jitter, one 120 Hz frame of batching, plus the hosts' share.
package enum StageRule {
    /// A rig's stated limits for one build.
    package struct Limits: Sendable, Hashable {
        package var computerMedianMs: Double
        package var computerMaxMs: Double
        /// The hosts' share of a link stage (bluetoothd, D-Bus, the kernel, the phone's own stack) before the scale.
        package var linkHostMs: Double

        package init(computerMedianMs: Double, computerMaxMs: Double, linkHostMs: Double) {
            self.computerMedianMs = computerMedianMs
            self.computerMaxMs = computerMaxMs
            self.linkHostMs = linkHostMs
        }
    }

    /// What carried a step's writes: the radio's interval and packet error rate (interval nil: delivered at once),
    /// or the network's netem delay and jitter.
    package enum LinkModel: Sendable, Hashable {
        case radio(intervalMs: Double?, errorRate: Double)
        case network(delayMs: Double, jitterMs: Double, lossPercent: Double = 0)

        /// The most the model explains before the hosts' share, and how, for the message.
        package var explainedMs: (ms: Double, how: String) {
            switch self {
            case .radio(nil, _):
                return (0, "a radio that delivers at once")
            case .radio(let interval?, let rate):
                let closures = StageRule.closures(errorRate: rate)
                let ms = interval * Double(2 + closures)
                return (ms, "\(Judge.format(interval)) ms connection events: the next event, one missed by the phone's host"
                    + (closures > 0 ? ", \(closures) closed by a packet error rate of \(Judge.format(rate * 100)) %" : ""))
            case .network(let delay, let jitter, let loss):
                // A lost TCP segment is sent again after the retransmission timeout: at least 200 ms on Linux, doubled
                // at each further loss.
                let resends = StageRule.rare(loss / 100)
                let retransmissions = (0..<resends).map { 200 * pow(2, Double($0)) }.reduce(0, +)
                let ms = delay + 3 * jitter + 1000.0 / 120 + retransmissions
                return (ms, "the network: \(Judge.format(delay)) ms delay ± \(Judge.format(jitter)), one 120 Hz frame of batching"
                    + (resends > 0 ? ", \(resends) TCP retransmission(s) at \(Judge.format(loss)) % loss" : ""))
            }
        }
    }

    /// How many connection events a packet may find closed (two failed tries in a row each, chance P²) with a
    /// chance above 1e-4.
    package static func closures(errorRate rate: Double) -> Int {
        rare(rate * rate)
    }

    /// How many times in a row something of chance `chance` happens with a chance above 1e-4.
    static func rare(_ chance: Double) -> Int {
        guard chance > 0 else { return 0 }
        var count = 0
        var together = chance
        while together > 1e-4 * (1 + 1e-9) && count < 20 {
            count += 1
            together *= chance
        }
        return count
    }

    /// How many judged writes a scenario needs before its median is judged (fewer: each meets the maximum only). Five
    /// were too few: the unchanged debug computer's median over the five judged writes of the first scenario after
    /// the guest's boot was 6.3 ms once (the vm rig's debug limit is 4.5), while a stream's tens of writes sit at 0.5.
    package static let medianFrom = 10

    /// The kind a write is judged among (its first is not judged): `cursorMove`, `hid`, `udp`.
    package static func kind(of payload: String) -> String {
        if payload.hasPrefix("hid ") { return "hid" }
        if payload.hasPrefix("udp ") { return "udp" }
        guard payload.hasPrefix("{\""), let end = payload.dropFirst(2).firstIndex(of: "\"") else { return payload }
        return String(payload[payload.index(payload.startIndex, offsetBy: 2)..<end])
    }

    /// One write the computer took, with its own stage.
    package struct Handled: Sendable, Hashable {
        package var received: UInt64
        package var firstWritten: UInt64
        package var step: Int?
        package var payload: String
        /// The first write of its kind its computer process handled (not judged).
        package var first: Bool

        package init(received: UInt64, firstWritten: UInt64, step: Int?, payload: String, first: Bool = false) {
            self.received = received
            self.firstWritten = firstWritten
            self.step = step
            self.payload = payload
            self.first = first
        }

        var stageMs: Double { Double(firstWritten >= received ? firstWritten - received : 0) / 1e6 }
    }

    /// The computer's own stage over a scenario's writes (in the order it received them): each write over the
    /// maximum is a problem of its step; a median over the limit is the scenario's. `stated` names where the limits
    /// come from ("the vm rig's release limits").
    package static func computer(_ all: [Handled], limits: Limits, stated: String) -> [(step: Int?, text: String)] {
        var problems: [(step: Int?, text: String)] = []
        let handled = all.filter { !$0.first }
        if let slowest = handled.max(by: { $0.stageMs < $1.stageMs }), slowest.stageMs > limits.computerMaxMs {
            let over = handled.filter { $0.stageMs > limits.computerMaxMs }.count
            problems.append((slowest.step, "the computer took \(Judge.format(slowest.stageMs)) ms from receiving \(slowest.payload) to its first frame, over the \(Judge.format(limits.computerMaxMs)) ms limit (\(stated))"
                + (over > 1 ? "; \(over) of its \(handled.count) writes were over it" : "")))
        }
        let warm = handled.map(\.stageMs).sorted()
        guard warm.count >= Self.medianFrom else { return problems }
        let median = warm.count % 2 == 1 ? warm[warm.count / 2] : (warm[warm.count / 2 - 1] + warm[warm.count / 2]) / 2
        if median > limits.computerMedianMs {
            problems.append((nil, "the computer's own stage (a write received → its first frame written) has a median of \(Judge.format(median)) ms over \(warm.count) writes, over the \(Judge.format(limits.computerMedianMs)) ms limit (\(stated)), by \(Judge.format(median - limits.computerMedianMs)) ms"))
        }
        return problems
    }

    /// A step's link stage from what the run saw: `ms` from its first write's send to its receipt, or less when the
    /// computer received, in between, writes the phone's link made on its own (`linkWrites`, their receipt times: its
    /// mode after a connect, in no send of the driver's). A link keeps order, so the write waited behind them; its
    /// stage starts at the last of them. (Seen in a debug control run: a key's write queued behind the mode write
    /// with response that the reconnect sent 21 ms after it, 116.6 ms in all, 95.6 ms after that write arrived.)
    package static func linkStage(ms: Double, sent: UInt64, linkWrites: [UInt64]) -> Double {
        let received = sent + UInt64(max(0, ms * 1e6).rounded())
        guard let last = linkWrites.filter({ $0 > sent && $0 < received }).max() else { return ms }
        return Double(received - last) / 1e6
    }

    /// A step's link stage against what `model` explains plus the hosts' share × `scale`; nil when it is within.
    package static func link(ms: Double, model: LinkModel, limits: Limits, scale: Double) -> String? {
        let explained = model.explainedMs
        let hosts = limits.linkHostMs * scale
        let bound = explained.ms + hosts
        guard ms > bound else { return nil }
        return "the link stage took \(Judge.format(ms)) ms, \(Judge.format(ms - bound)) ms more than its model explains: "
            + "\(Judge.format(explained.ms)) ms for \(explained.how), and \(Judge.format(hosts)) ms for the hosts "
            + "(\(Judge.format(limits.linkHostMs)) × the rig's latency scale \(Judge.format(scale)))"
    }
}
