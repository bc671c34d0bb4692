import Report
package import Foundation
package import Records

/// Writes a run's results.json and junit.xml into the output folder: as the run goes (LiveResults' checkpoints), at
/// the end of the run, and at once when the run is interrupted. After an interrupt the results are final (a scenario under way is not kept), and writing them then
/// keeps them even when the run is stopped before it ends: the vm rig gives an interrupted job 30 s, and a scenario in
/// a long wait step does not end sooner.
package struct RunResultsWriter: Sendable {
    package var environment: RunEnvironment
    package var startedAt: Date
    package var start: ContinuousClock.Instant
    package var shard: (index: Int, count: Int)?
    package var folder: String

    package init(environment: RunEnvironment, startedAt: Date, start: ContinuousClock.Instant, shard: (index: Int, count: Int)?,
                 folder: String)
    {
        self.environment = environment
        self.startedAt = startedAt
        self.start = start
        self.shard = shard
        self.folder = folder
    }

    /// Milliseconds since the run started.
    package var wallMs: Double { (ContinuousClock.now - start).milliseconds }

    /// Writes both files; returns the wall time written.
    @discardableResult
    package func write(_ results: [ScenarioResult]) throws -> Double {
        let wallMs = wallMs
        try RunReport.json(results, environment: environment, startedAt: startedAt, wallMs: wallMs, shard: shard)
            .write(toFile: folder + "/results.json", atomically: true, encoding: .utf8)
        try RunReport.junit(results, environment: environment).write(toFile: folder + "/junit.xml", atomically: true, encoding: .utf8)
        return wallMs
    }
}
