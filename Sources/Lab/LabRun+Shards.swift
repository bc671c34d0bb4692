import Foundation
import Processes
import Waiting

extension LabRun {
    /// One box's shard while it runs.
    struct Shard {
        var box: LabBox
        var index: Int
        var count: Int
        /// The output folder on the box.
        var remoteOutput: String
        /// The ssh session's output, locally.
        var log: String
        var child: ChildProcess
        var shown = 0
    }

    /// Starts shard i/n on each box, follows their progress lines, and waits for all of them; on a stop, interrupts
    /// each box's hil run (it writes its results so far) and waits for it to end.
    func runShards(_ boxes: [LabBox]) async throws(LabError) -> [Shard] {
        var shards: [Shard] = []
        for (offset, box) in boxes.enumerated() {
            let folder = settings.output + "/" + box.place
            try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let remote = "/tmp/hil-lab-\(runID)-\(box.place)"
            let log = folder + "/hil-run.log"
            try? FileManager.default.removeItem(atPath: log)
            let child = try LabRemote(box: box, sshConfig: settings.sshConfig)
                .startShard((offset + 1, boxes.count), output: remote, runArguments: settings.runArguments, log: log)
            say("lab: \(box.place): hil run --shard \(offset + 1)/\(boxes.count) started (output on the box: \(remote))")
            shards.append(Shard(box: box, index: offset + 1, count: boxes.count, remoteOutput: remote, log: log, child: child))
        }
        var stopSent = false
        // Each second: the shards' new lines, and a stop passed on to every box once.
        if shards.contains(where: { $0.child.termination == nil }) {
            await Pace.every(.seconds(1)) {
                for index in shards.indices { follow(&shards[index]) }
                if let why = stopped, !stopSent {
                    stopSent = true
                    await stopShards(shards, why)
                }
                return shards.contains { $0.child.termination == nil }
            }
        }
        if Task.isCancelled {
            for shard in shards where shard.child.termination == nil { _ = await shard.child.teardown() }
            throw LabError(.interrupted, "the lab run was cancelled: every box's ssh session was closed")
        }
        for index in shards.indices { follow(&shards[index]) }
        return shards
    }

    /// Interrupts every box's hil run (each writes its results so far); a box that does not stop within 2 minutes has
    /// its ssh session closed, and its place is given back regardless.
    private func stopShards(_ shards: [Shard], _ why: Stop) async {
        say("lab: \(why.rawValue): interrupting every box's hil run (each writes its results so far)")
        await withTaskGroup(of: Void.self) { group in
            for shard in shards where shard.child.termination == nil {
                group.addTask { await LabRemote(box: shard.box, sshConfig: self.settings.sshConfig).stopShard(output: shard.remoteOutput) }
            }
        }
        Pace.after(.seconds(120)) { [shards] in
            for shard in shards where shard.child.termination == nil { _ = await shard.child.teardown() }
        }
    }

    /// Prints the shard's new scenario lines (`[3/31] PASSED …`) and its summary, prefixed with the place.
    func follow(_ shard: inout Shard) {
        guard let data = FileManager.default.contents(atPath: shard.log), data.count > shard.shown else { return }
        let text = String(decoding: data[shard.shown...], as: UTF8.self)
        guard let lastNewline = text.lastIndex(of: "\n") else { return }
        let complete = text[...lastNewline]
        shard.shown += complete.utf8.count
        for line in complete.split(separator: "\n") where line.hasPrefix("[") || line.contains(" passed, ") || line.hasPrefix("hil: rig") {
            say("\(shard.box.place) \(shard.index)/\(shard.count): \(line)")
        }
    }

    /// Copies each box's output folder into `output/<place>/results`; a box whose results cannot be fetched is
    /// named and left out of the merge.
    func fetch(_ shards: [Shard]) async -> [String: String] {
        var fetched: [String: String] = [:]
        for shard in shards {
            let local = settings.output + "/" + shard.box.place + "/results"
            try? FileManager.default.removeItem(atPath: local)
            do {
                let remote = LabRemote(box: shard.box, sshConfig: settings.sshConfig)
                try await remote.fetch(shard.remoteOutput, to: local)
                await remote.remove(shard.remoteOutput)
                if FileManager.default.fileExists(atPath: local + "/results.json") {
                    fetched[shard.box.place] = local + "/results.json"
                } else {
                    let last = (try? String(contentsOfFile: shard.log, encoding: .utf8))?.split(separator: "\n").suffix(6)
                        .map { "  | \($0)" }.joined(separator: "\n") ?? ""
                    say("lab: \(shard.box.place) wrote no results.json (its hil run \(shard.child.termination.map(\.description) ?? "did not end")); its last lines (all in \(shard.log)):\n\(last)")
                }
            } catch {
                say(error.description)
            }
        }
        return fetched
    }
}
