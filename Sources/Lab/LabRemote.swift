import Foundation
package import Processes

/// Commands on a box over SSH (OpenSSH's ssh and scp, never a shell of our own): its health check, its shard of
/// the run, stopping that shard, fetching its results.
package struct LabRemote: Sendable {
    package var box: LabBox
    /// An ssh_config file (`ssh -F`) for keys and host-key checking; nil: the user's own.
    package var sshConfig: String?

    package init(box: LabBox, sshConfig: String?) {
        self.box = box
        self.sshConfig = sshConfig
    }

    /// Options of every ssh and scp: never ask (a lab run has nobody to answer), notice a dead box.
    var options: [String] {
        (sshConfig.map { ["-F", $0] } ?? []) + [
            "-o", "BatchMode=yes", "-o", "ConnectTimeout=10", "-o", "ServerAliveInterval=15", "-o", "ServerAliveCountMax=4",
        ]
    }

    var destination: String { "\(box.username)@\(box.address)" }

    /// `ssh … user@address 'cd CHECKOUT && command'`: `command`'s words quoted for the remote shell.
    package func sshArguments(_ command: [String]) -> [String] {
        let line = "cd \(Self.quote(box.checkout)) && " + command.map(Self.quote).joined(separator: " ")
        return options + ["-p", String(box.port), destination, line]
    }

    /// A word for a POSIX shell: single-quoted unless it is plain.
    package static func quote(_ word: String) -> String {
        let plain = !word.isEmpty && word.unicodeScalars.allSatisfy { scalar in
            CharacterSet.alphanumerics.contains(scalar) || "/._-=:,+@%".unicodeScalars.contains(scalar)
        }
        return plain ? word : "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// Runs `command` in the checkout and waits for it.
    package func run(_ command: [String], timeout: Duration) async throws(LabError) -> LabProcess {
        try await LabProcess.run("/usr/bin/ssh", sshArguments(command), timeout: timeout)
    }

    /// `hil doctor` on the box, in its checkout: healthy when it exits 0 (a rig can run there), and what it printed.
    package func healthCheck() async -> (healthy: Bool, output: String) {
        do {
            let result = try await run([box.hil, "doctor"], timeout: .seconds(120))
            if result.timedOut { return (false, "no answer within 120 s:\n\(result.tail())") }
            return (result.status == 0, result.output)
        } catch {
            return (false, error.description)
        }
    }

    /// Starts the shard: `hil run --shard i/n --output OUTPUT options…` in the checkout, its process id written to
    /// OUTPUT.pid first so `stop` can interrupt it; its output appended to `log`.
    package func startShard(_ shard: (index: Int, count: Int), output: String, runArguments: [String], log: String) throws(LabError) -> ChildProcess {
        let run = [box.hil, "run", "--shard", "\(shard.index)/\(shard.count)", "--output", output] + runArguments
        let line = "cd \(Self.quote(box.checkout)) && mkdir -p \(Self.quote(output)) && echo $$ > \(Self.quote(output + ".pid")) && exec "
            + run.map(Self.quote).joined(separator: " ")
        return try LabProcess.start("/usr/bin/ssh", options + ["-p", String(box.port), destination, line], log: log)
    }

    /// Interrupts the shard's hil run on the box (SIGINT: it stops its peripheral and guest and writes the results
    /// so far), as Ctrl-C would.
    package func stopShard(output: String) async {
        let pidFile = Self.quote(output + ".pid")
        _ = try? await LabProcess.run("/usr/bin/ssh", options + ["-p", String(box.port), destination,
                                                                 "test -s \(pidFile) && kill -INT $(cat \(pidFile))"], timeout: .seconds(30))
    }

    /// Deletes the shard's output folder on the box once it is fetched (boxes run many labs: /tmp would fill).
    package func remove(_ output: String) async {
        _ = try? await LabProcess.run("/usr/bin/ssh", options + ["-p", String(box.port), destination,
                                                                 "rm -rf \(Self.quote(output)) \(Self.quote(output + ".pid"))"], timeout: .seconds(60))
    }

    /// Copies the box's output folder (results.json, junit.xml, each scenario's logs and captures) into `local`.
    package func fetch(_ output: String, to local: String) async throws(LabError) {
        // scp -r into a folder that does not exist yet creates it with the remote folder's contents.
        let parent = (local as NSString).deletingLastPathComponent
        try? FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
        let result = try await LabProcess.run("/usr/bin/scp", options + ["-r", "-q", "-P", String(box.port), "\(destination):\(output)", local],
                                              timeout: .seconds(300))
        guard result.status == 0 else {
            throw LabError(
                .remote, "\(box.place): cannot fetch \(output) with scp (status \(result.status)):\n\(result.tail())")
        }
    }
}
