import LatencyStats
package import Records

/// Where a run's time went, from its scenarios' phases (`phasesMs`): for each phase, the time scenarios spent in
/// it (from the end of the phase before, or the scenario's start), as a median and a total; the steps apart
/// (the `steps done` phase) and everything else, the per-scenario overhead, apart. A regression in overhead shows
/// here before it shows in the suite's wall time.
package struct PhaseBreakdown: Sendable, Equatable {
    /// The phase whose time is the scenario's own steps; every other phase is overhead.
    package static let stepsPhase = "steps done"

    package struct Phase: Sendable, Equatable {
        package var name: String
        /// Scenarios that went through it.
        package var count: Int
        package var medianMs: Double
        package var totalMs: Double
    }

    /// In the order the phases first appear.
    package var phases: [Phase]
    /// Scenarios with phases (a refused start, R10, has none).
    package var scenarios: Int
    package var stepsTotalMs: Double
    /// Each scenario's duration less its steps.
    package var overheadTotalMs: Double
    package var overheadMedianMs: Double?

    package init(_ records: [ScenarioResult]) {
        var order: [String] = []
        var spans: [String: [Double]] = [:]
        var overheads: [Double] = []
        var steps = 0.0
        for record in records {
            guard let phases = record.phasesMs, !phases.isEmpty else { continue }
            var previous = 0.0
            var ownSteps = 0.0
            for phase in phases {
                let span = max(0, phase.atMs - previous)
                previous = phase.atMs
                if spans[phase.name] == nil { order.append(phase.name) }
                spans[phase.name, default: []].append(span)
                if phase.name == Self.stepsPhase { ownSteps = span }
            }
            steps += ownSteps
            overheads.append(max(0, (record.durationMs ?? previous) - ownSteps))
        }
        phases = order.map { name in
            let values = spans[name] ?? []
            return Phase(name: name, count: values.count, medianMs: Spread(values)?.median ?? 0, totalMs: values.reduce(0, +))
        }
        scenarios = overheads.count
        stepsTotalMs = steps
        overheadTotalMs = overheads.reduce(0, +)
        overheadMedianMs = Spread(overheads)?.median
    }

    /// `53 scenarios: steps 119.8 s, overhead 48.5 s (median 0.89 s a scenario)`
    package var summaryLine: String {
        "\(scenarios) scenario\(scenarios == 1 ? "" : "s"): steps \(Formatting.seconds(stepsTotalMs)), overhead "
            + "\(Formatting.seconds(overheadTotalMs)) (median \(overheadMedianMs.map { String(format: "%.2f s", $0 / 1000) } ?? "-") a scenario)"
    }

    /// `rig up in 5.8 s, then 171.1 s in all; 53 scenarios: …`: with the rig's bring-up and the wall time when the
    /// run has them.
    package func runLine(_ results: RunResults) -> String {
        var parts: [String] = []
        if let up = results.environments.compactMap(\.rigUpMs).max() { parts.append("rig up in \(Formatting.seconds(up))") }
        if let wall = results.wallMs { parts.append("\(parts.isEmpty ? "" : "then ")\(Formatting.seconds(wall)) in all") }
        return (parts.isEmpty ? "" : parts.joined(separator: ", ") + "; ") + summaryLine + "."
    }

    /// The phases as plain text rows: name, median ms, total s.
    package var table: String {
        let width = max(20, (phases.map(\.name.count).max() ?? 0) + 2)
        var lines = ["phase".padding(toLength: width, withPad: " ", startingAt: 0) + "median ms    total s"]
        for phase in phases {
            lines.append(phase.name.padding(toLength: width, withPad: " ", startingAt: 0)
                + String(format: "%9.0f  %9.1f", phase.medianMs, phase.totalMs / 1000))
        }
        return lines.joined(separator: "\n")
    }
}
