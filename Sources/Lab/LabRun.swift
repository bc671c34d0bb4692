import Foundation
import Synchronization
import Waiting

/// `hil lab run`: reserve N places on a labgrid coordinator, lock them, check each box's health, run one shard of
/// the suite on each healthy box over SSH, fetch and merge the results, and give every place back — whatever
/// happens. Progress goes to `say`.
package final class LabRun: Sendable {
    package struct Settings: Sendable {
        package var places: Int
        package var tags: [String]
        /// Arguments for each box's `hil run` (options and scenario paths, as on the box, relative to its checkout).
        package var runArguments: [String]
        /// The local folder for every box's results and the merged report.
        package var output: String
        package var sshConfig: String?
        /// How long to wait for the places to be allocated.
        package var reserveTimeout: Duration
        /// The whole run's limit (exit 124), nil for none.
        package var timeout: Duration?

        package init(places: Int, tags: [String], runArguments: [String], output: String, sshConfig: String?,
                    reserveTimeout: Duration, timeout: Duration?)
        {
            self.places = places
            self.tags = tags
            self.runArguments = runArguments
            self.output = output
            self.sshConfig = sshConfig
            self.reserveTimeout = reserveTimeout
            self.timeout = timeout
        }
    }

    /// Why a run stops early.
    package enum Stop: String, Sendable {
        case interrupted
        case timedOut = "timed out"
    }

    let labgrid: Labgrid
    let settings: Settings
    let hold: LabHold
    let say: @Sendable (String) -> Void
    private let stop = Mutex<Stop?>(nil)
    let runID: String

    package init(labgrid: Labgrid, settings: Settings, say: @escaping @Sendable (String) -> Void) {
        self.labgrid = labgrid
        self.settings = settings
        self.hold = LabHold(labgrid)
        self.say = say
        runID = "\(Int(Date().timeIntervalSince1970))-\(getpid())"
    }

    /// Asks the run to stop (Ctrl-C, SIGTERM, its time limit): shards are interrupted, results fetched, places given back.
    package func requestStop(_ why: Stop) {
        stop.withLock { if $0 == nil { $0 = why } }
    }

    var stopped: Stop? { stop.withLock { $0 } }

    /// Reserves and locks the places: one reservation per place (labgrid allocates one place to each), each waited
    /// for in short steps so a stop is noticed, then locked through its token.
    func acquire() async throws(LabError) -> [String] {
        var tokens: [String] = []
        for _ in 0..<settings.places {
            let token = try await labgrid.reserve(tags: settings.tags)
            hold.add(token: token)
            tokens.append(token)
        }
        say("lab: \(settings.places) reservation(s) for \(settings.tags.joined(separator: " ")): \(tokens.joined(separator: ", "))")
        let deadline = ContinuousClock.now + settings.reserveTimeout
        for token in tokens {
            // labgrid-client waits up to 3 s for the allocation; between its waits, a stop is noticed.
            do {
                try await Poll.until("allocation of \(token)", timeout: deadline - .now, every: .zero) { () throws(LabError) -> Void? in
                    if try await labgrid.waitAllocated(token, timeout: .seconds(3)) { return () }
                    if let why = stopped { throw LabError(.interrupted, "lab: \(why.rawValue) while waiting for places") }
                    return nil
                }
            } catch let error as LabError {
                throw error
            } catch is WaitTimeout {
                throw LabError(
                    .noPlaces, "lab: reservation \(token) was not allocated within \(settings.reserveTimeout): fewer than \(settings.places) places tagged \(settings.tags.joined(separator: " ")) are free",
                    hint: "`hil lab status --coordinator \(labgrid.coordinator)` shows who holds them; ask for fewer with --places")
            } catch {
                throw LabError(.interrupted, "lab: cancelled while waiting for places")
            }
        }
        var places: [String] = []
        for token in tokens {
            let place = try await labgrid.lock(reservation: token)
            hold.add(place: place)
            places.append(place)
            say("lab: locked \(place)")
        }
        return places
    }

    /// Each box's health (`hil doctor` over SSH), at once; a broken box is reported, given back and left out.
    func checkHealth(_ boxes: [LabBox]) async -> [(box: LabBox, healthy: Bool, output: String)] {
        let checks = await withTaskGroup(of: (Int, Bool, String).self) { group in
            for (index, box) in boxes.enumerated() {
                group.addTask {
                    let (healthy, output) = await LabRemote(box: box, sshConfig: self.settings.sshConfig).healthCheck()
                    return (index, healthy, output)
                }
            }
            var results: [(Int, Bool, String)] = []
            for await result in group { results.append(result) }
            return results.sorted { $0.0 < $1.0 }
        }
        let stamp = ISO8601DateFormatter().string(from: Date())
        var result: [(box: LabBox, healthy: Bool, output: String)] = []
        for (index, healthy, output) in checks {
            let box = boxes[index]
            let last = output.split(separator: "\n").last.map(String.init) ?? "(nothing printed)"
            if healthy {
                say("lab: \(box.place) healthy (hil doctor passed)")
                await labgrid.setComment(box.place, "health ok \(stamp)")
            } else {
                say("lab: \(box.place) FAILED its health check, left out of this run; hil doctor on \(box.address) said:\n"
                    + output.split(separator: "\n").suffix(8).map { "  | \($0)" }.joined(separator: "\n"))
                await labgrid.setComment(box.place, "health FAILED \(stamp): \(last)")
                if let why = await hold.release(place: box.place) { say("lab: \(box.place) could not be released: \(why)") }
            }
            result.append((box, healthy, output))
        }
        return result
    }
}
