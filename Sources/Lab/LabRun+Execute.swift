import Foundation
package import Records
import System
import Report

extension LabRun {
    /// What the run came to: the exit status `hil lab run` returns (`ExitCause`, as `hil run`: 0 all passed, 1 a
    /// failure; 69 no box could run; 125 a box's results lost or a place not given back; 130 interrupted; 124 over
    /// --timeout) and the lab record written.
    package struct Outcome: Sendable {
        package var status: Int32
        package var record: LabRecord
    }

    /// The whole run. Places are given back on every path out of it, errors included; what could not be given
    /// back is printed with the command that frees it.
    package func execute() async -> Outcome {
        let clock = ContinuousClock()
        let start = clock.now
        var boxes: [LabRecord.Box] = []
        var status = ExitCause.rigBroke
        var outcome = "error"
        do {
            (status, outcome) = try await perform(&boxes)
        } catch {
            say(error.description)
            status = Self.status(error)
        }
        if let why = stopped {
            status = why == .interrupted ? .interrupted : .timedOut
            outcome = why.rawValue
        }
        let (released, failed) = await hold.releaseAll()
        for index in boxes.indices where released.contains(boxes[index].place) || boxes[index].health == "failed" {
            boxes[index].released = true
        }
        if !released.isEmpty { say("lab: released \(released.sorted().joined(separator: ", ")); reservations cancelled") }
        for problem in failed {
            say("lab: NOT released: \(problem)\n  free it with: labgrid-client -x \(labgrid.coordinator) -p PLACE unlock (or cancel-reservation TOKEN)")
        }
        if !failed.isEmpty && status == .passed { status = .rigBroke }
        let wall = clock.now - start
        let record = LabRecord(coordinator: labgrid.coordinator, boxes: boxes, outcome: outcome,
                               wallMs: Double(wall.components.seconds) * 1000 + Double(wall.components.attoseconds) / 1e15)
        try? FileManager.default.createDirectory(atPath: settings.output, withIntermediateDirectories: true)
        try? record.jsonText.write(toFile: settings.output + "/lab.json", atomically: true, encoding: .utf8)
        return Outcome(status: status.rawValue, record: record)
    }

    /// The status of a run that stopped on `error`: no usable rig when no box could run, the rig broke when a box's
    /// results were lost.
    static func status(_ error: LabError) -> ExitCause {
        switch error.code {
        case .missingTool, .labgrid, .place, .noPlaces, .noHealthyBox: .noUsableRig
        case .interrupted: .interrupted
        default: .rigBroke
        }
    }

    private func perform(_ boxes: inout [LabRecord.Box]) async throws(LabError) -> (ExitCause, String) {
        let places = try await acquire()
        var found: [LabBox] = []
        for place in places { found.append(try await labgrid.box(place)) }
        let checked = await checkHealth(found)
        boxes = checked.map { check in
            LabRecord.Box(place: check.box.place, box: check.box.summary, health: check.healthy ? "ok" : "failed",
                          healthOutput: check.healthy ? nil : String(check.output.split(separator: "\n").suffix(20).joined(separator: "\n")))
        }
        let healthy = checked.filter(\.healthy).map(\.box)
        guard !healthy.isEmpty else {
            throw LabError(.noHealthyBox, "lab: no box passed its health check: nothing ran", hint: "each box's hil doctor output is above and in lab.json")
        }
        if let why = stopped { throw LabError(.interrupted, "lab: \(why.rawValue) before the run started") }
        let shards = try await runShards(healthy)
        let fetched = await fetch(shards)
        for shard in shards {
            guard let index = boxes.firstIndex(where: { $0.place == shard.box.place }) else { continue }
            boxes[index].shard = RunShard(index: shard.index, count: shard.count)
            boxes[index].results = fetched[shard.box.place].map { String($0.dropFirst(settings.output.count + 1)) }
        }
        return try merge(shards, fetched: fetched)
    }

    /// Merges the fetched shards (each environment marked with its place and box) into results.json, junit.xml,
    /// report.html and summary.md in the output folder; prints the merged line.
    private func merge(_ shards: [Shard], fetched: [String: String]) throws(LabError) -> (ExitCause, String) {
        var parts: [RunResults] = []
        for shard in shards {
            guard let file = fetched[shard.box.place] else { continue }
            do {
                var part = try RunResults.load(contentsOf: file).capturesAbsolute(from: (file as NSString).deletingLastPathComponent)
                for index in part.environments.indices {
                    part.environments[index].additional.set("labPlace", .string(shard.box.place))
                    part.environments[index].additional.set("labBox", .string(shard.box.summary))
                }
                parts.append(part)
            } catch {
                say("lab: \(shard.box.place): \(error.description)")
            }
        }
        guard !parts.isEmpty else { throw LabError(.results, "lab: no box's results could be read: nothing to merge") }
        let missing = shards.count - parts.count
        let merged: RunResults
        do {
            merged = try RunResults.merge(parts)
            // Capture paths are absolute here (each shard's folder); written relative to the output folder.
            try ReportFiles.writeRun(merged, to: settings.output, everyEnvironmentKey: true)
        } catch {
            throw LabError(.results, "lab: merging the boxes' results: \(error.description)")
        }
        let line = RunTotals.line(merged.scenarios.map(\.outcome))
            + " on \(parts.count) box(es)" + (missing > 0 ? "; \(missing) shard(s) without results" : "")
        say("lab: merged: \(line)")
        say("lab: results: \(settings.output)/results.json, junit.xml, \(ReportFiles.htmlName), \(ReportFiles.markdownName), lab.json")
        let ok = merged.failed == 0 && missing == 0 && shards.allSatisfy { $0.child.termination?.status == 0 }
        return (ok ? .passed : .productFailed, ok ? "passed" : "failed")
    }
}
