package import LatencyStats
import StrictJSON

/// What `hil bench` measured (bench.json, format `hil-bench/1`): per write path, the main stream, its stages,
/// the rate ladder and the highest rate sustained. Stable, so runs can be compared.
package struct BenchResults: Sendable, Equatable {
    /// The format this version writes.
    package static let format = "hil-bench/1"

    package var rig: String
    /// The kernel release the rig ran (`uname -r`).
    package var kernel: String
    /// bluetoothd's version; nil when unknown.
    package var bluez: String?
    /// The radio that carried the link, as results.json's environment names it: the controllers (`btvirt`,
    /// `existing`), the emulated radio's model (`immediate`, `connectionEvents`) and its interval in ms; nil when
    /// unknown (or, for the model and interval, not an emulated radio's).
    package var radio: String?
    package var radioModel: String?
    package var radioIntervalMs: Double?
    /// Commands per path in the main stream.
    package var count: Int
    /// The main stream's rate.
    package var rateHz: Double
    /// In the order the paths were run.
    package var paths: [Path]
    /// How long each ladder stream lasts, and how many streams make a rung.
    package var rungSeconds: Double
    package var repetitions: Int
    /// How each stream's sends were timed (`SendSchedule`): dithered within each slot, or regular.
    package var pacing = ""

    package init(rig: String, kernel: String, bluez: String?, radio: String? = nil, radioModel: String? = nil,
                radioIntervalMs: Double? = nil, count: Int, rateHz: Double, paths: [Path], rungSeconds: Double = 5,
                repetitions: Int = 3)
    {
        self.rig = rig
        self.kernel = kernel
        self.bluez = bluez
        self.radio = radio
        self.radioModel = radioModel
        self.radioIntervalMs = radioIntervalMs
        self.count = count
        self.rateHz = rateHz
        self.paths = paths
        self.rungSeconds = rungSeconds
        self.repetitions = repetitions
    }

    /// One rate of the ladder over its repetitions: sustained only when every repetition was; the median and the
    /// range of the achieved rate and of p99.
    package struct Rung: Sendable, Equatable {
        package var rateHz: Double
        package var repetitions: Int
        package var sustained: Bool
        package var achievedHz: Spread
        /// Infinite for a repetition whose frames were never seen (written `null`).
        package var p99Ms: Spread

        package init(rateHz: Double, repetitions: Int, sustained: Bool, achievedHz: Spread, p99Ms: Spread) {
            self.rateHz = rateHz
            self.repetitions = repetitions
            self.sustained = sustained
            self.achievedHz = achievedHz
            self.p99Ms = p99Ms
        }
    }

    /// One write path (`dbus`, `fd`): its main stream, then the ladder of rates tried.
    package struct Path: Sendable, Equatable {
        package var name: String
        package var main: Stream
        /// The main stream's stages (`link`, `peripheral`) by name; written sorted by name.
        package var stagesMs: [String: LatencySummary]
        /// The highest ladder rate sustained; nil when none was.
        package var maxSustainedHz: Double?
        /// Every ladder stream, repetitions included, in the order run.
        package var ladder: [Stream]
        package var rungs: [Rung]

        package init(name: String, main: Stream, stagesMs: [String: LatencySummary], maxSustainedHz: Double?,
                    ladder: [Stream], rungs: [Rung] = [])
        {
            self.name = name
            self.main = main
            self.stagesMs = stagesMs
            self.maxSustainedHz = maxSustainedHz
            self.ladder = ladder
            self.rungs = rungs
        }
    }

    /// One stream of commands at one rate.
    package struct Stream: Sendable, Equatable {
        package var rateHz: Double
        package var sent: Int
        /// Commands the computer received (its receipts).
        package var received: Int
        /// Commands that never reached the computer.
        package var lost: Int
        /// Which, as index ranges (`0-6, 180`).
        package var lostAt: String
        /// Received commands whose evdev frame was seen.
        package var verified: Int
        /// Received commands whose frame the reader did not see.
        package var unseen: Int
        package var unseenAt: String
        /// SYN_DROPPED reports during the stream.
        package var readerDrops: Int
        package var achievedHz: Double
        package var latency: LatencySummary
        /// The keys and buttons the kernel held once the stream's last frame landed (EVIOCGKEY): none, or a failure.
        package var heldAtEnd: [String] = []

        package init(rateHz: Double, sent: Int, received: Int, lost: Int, lostAt: String, verified: Int, unseen: Int,
                    unseenAt: String, readerDrops: Int, achievedHz: Double, latency: LatencySummary)
        {
            self.rateHz = rateHz
            self.sent = sent
            self.received = received
            self.lost = lost
            self.lostAt = lostAt
            self.verified = verified
            self.unseen = unseen
            self.unseenAt = unseenAt
            self.readerDrops = readerDrops
            self.achievedHz = achievedHz
            self.latency = latency
        }
    }

    /// bench.json: pretty-printed with a final newline; the achieved rate to 0.1 Hz, latencies to the µs.
    package var jsonText: String {
        let pathValues: [(String, JSONValue)] = paths.map { path in
            var main = Self.json(path.main)
            let stages = path.stagesMs.keys.sorted().map { ($0, path.stagesMs[$0]!.jsonValue) }
            main.set("stagesMs", .object(JSONObject(stages)))
            main.set("maxSustainedHz", path.maxSustainedHz.map(JSONValue.number) ?? .null)
            main.set("ladder", .array(path.ladder.map { .object(Self.json($0)) }))
            main.set("rungs", .array(path.rungs.map(Self.json)))
            return (path.name, .object(main))
        }
        let document: JSONValue = .object(JSONObject([
            ("format", .string(Self.format)), ("rig", .string(rig)), ("kernel", .string(kernel)),
            ("bluez", bluez.map(JSONValue.string) ?? .null), ("radio", radio.map(JSONValue.string) ?? .null),
            ("radioModel", radioModel.map(JSONValue.string) ?? .null), ("radioIntervalMs", radioIntervalMs.map(JSONValue.number) ?? .null),
            ("count", .number(Double(count))),
            ("rateHz", .number(rateHz)), ("rungSeconds", .number(rungSeconds)), ("repetitions", .number(Double(repetitions))),
            ("pacing", .string(pacing)),
            ("paths", .object(JSONObject(pathValues))),
        ]))
        return JSONWriter(pretty: true).string(document) + "\n"
    }

    private static func json(_ rung: Rung) -> JSONValue {
        func spread(_ spread: Spread, scale: Double) -> JSONValue {
            .object(JSONObject(zip(["median", "min", "max"], [spread.median, spread.min, spread.max]).map { name, value in
                (name, value.isFinite ? .number((value * scale).rounded() / scale) : .null)
            }))
        }
        return .object(JSONObject([
            ("rateHz", .number(rung.rateHz)), ("repetitions", .number(Double(rung.repetitions))), ("sustained", .bool(rung.sustained)),
            ("achievedHz", spread(rung.achievedHz, scale: 10)), ("p99Ms", spread(rung.p99Ms, scale: 1000)),
        ]))
    }

    private static func json(_ stream: Stream) -> JSONObject {
        JSONObject([
            ("rateHz", .number(stream.rateHz)), ("sent", .number(Double(stream.sent))),
            ("received", .number(Double(stream.received))), ("lost", .number(Double(stream.lost))),
            ("lostAt", .string(stream.lostAt)), ("verified", .number(Double(stream.verified))),
            ("unseen", .number(Double(stream.unseen))), ("unseenAt", .string(stream.unseenAt)),
            ("readerDrops", .number(Double(stream.readerDrops))),
            ("heldAtEnd", .array(stream.heldAtEnd.map(JSONValue.string))),
            ("achievedHz", .number((stream.achievedHz * 10).rounded() / 10)), ("latencyMs", stream.latency.jsonValue),
        ])
    }
}
