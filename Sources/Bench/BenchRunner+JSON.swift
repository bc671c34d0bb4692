package import Records

extension BenchRunner {
    /// bench.json (format `hil-bench/1`) for `hil bench`'s results, written by Report.
    ///
    /// - Parameters:
    ///   - results: each path's result, by path name; paths without one are left out.
    ///   - paths: the order to write the paths in.
    ///   - kernel: the rig's kernel release; `bluez`: bluetoothd's version, if known.
    ///   - radio: the radio's fields as results.json's environment has them (`radio`, `radioModel`, `radioIntervalMs`).
    package static func json(_ results: [String: PathResult], paths: [String], settings: Settings, rig: String,
                            kernel: String, bluez: String?, radio: RunEnvironment = RunEnvironment()) -> String
    {
        func stream(_ stream: Stream) -> BenchResults.Stream {
            var written = BenchResults.Stream(
                rateHz: stream.rateHz, sent: stream.sent, received: stream.received, lost: stream.lost,
                lostAt: stream.lostAt, verified: stream.verified, unseen: stream.unseen, unseenAt: stream.unseenAt,
                readerDrops: stream.readerDrops, achievedHz: stream.achievedHz, latency: stream.latency)
            written.heldAtEnd = stream.heldAtEnd
            return written
        }
        let written = paths.compactMap { path in
            results[path].map { result in
                BenchResults.Path(
                    name: path, main: stream(result.main), stagesMs: result.main.stages,
                    maxSustainedHz: result.maxSustainedHz, ladder: result.ladder.flatMap(\.repetitions).map(stream),
                    rungs: result.ladder.map { rung in
                        BenchResults.Rung(
                            rateHz: rung.rateHz, repetitions: rung.repetitions.count,
                            sustained: rung.sustained,
                            achievedHz: rung.achievedHz, p99Ms: rung.p99Ms)
                    })
            }
        }
        var results = BenchResults(
            rig: rig, kernel: kernel, bluez: bluez, radio: radio.radio, radioModel: radio.radioModel,
            radioIntervalMs: radio.radioIntervalMs, count: settings.count, rateHz: settings.rateHz, paths: written,
            rungSeconds: settings.rungSeconds, repetitions: settings.repetitions)
        results.pacing = settings.pacing
        return results.jsonText
    }
}

extension SoakRunner.Summary {
    /// soak.json (format `hil-soak/1`) for this soak, written by Report.
    package func json(rig: String, rateHz: Double, path: String) -> String {
        var results = SoakResults(
            rig: rig, rateHz: rateHz, path: path, sent: sent, lostByLink: lostByLink, readerDrops: readerDrops,
            minutes: minutes.map { minute in
                SoakResults.Minute(
                    minute: minute.minute, sent: minute.sent, verified: minute.verified,
                    unverified: minute.unverified, latency: minute.latency, residentKiB: minute.residentKiB)
            })
        results.heldAtEnd = heldAtEnd
        results.pacing = pacing
        return results.jsonText
    }
}
