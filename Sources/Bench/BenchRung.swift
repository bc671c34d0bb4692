package import LatencyStats

/// One rate of `hil bench`'s ladder, streamed several times: a rate counts as sustained only when every
/// repetition meets the rule (`BenchRunner.sustains`), and the spread over the repetitions is reported with the
/// median, so a single lucky or unlucky stream cannot make the number.
package struct BenchRung: Sendable {
    package var rateHz: Double
    /// How many repetitions a rung must run (`hil bench --repetitions`).
    package var required: Int
    /// Every repetition at this rate, in the order run (fewer than `required` when one could not keep up).
    package var repetitions: [BenchRunner.Stream]

    package init(rateHz: Double, required: Int, repetitions: [BenchRunner.Stream]) {
        self.rateHz = rateHz
        self.required = required
        self.repetitions = repetitions
    }

    /// All `required` repetitions ran and every one met the rule.
    package var sustained: Bool {
        repetitions.count >= required && repetitions.allSatisfy(BenchRunner.sustains)
    }

    /// The achieved rate over the repetitions (zeros for none).
    package var achievedHz: Spread { Spread(repetitions.map(\.achievedHz)) ?? Spread(median: 0, min: 0, max: 0) }

    /// The p99 latency over the repetitions (a repetition without latencies counts as infinitely slow).
    package var p99Ms: Spread { Spread(repetitions.map { $0.latency.p99 ?? .infinity }) ?? Spread(median: 0, min: 0, max: 0) }
}
