public import LatencyStats
import StrictJSON

/// What `hil soak` measured (soak.json, format `hil-soak/1`): totals, and every minute's counts, latency and the
/// computer's memory.
public struct SoakResults: Sendable, Equatable {
    /// The format this version writes.
    public static let format = "hil-soak/1"

    public var rig: String
    public var rateHz: Double
    /// The write path: `dbus` or `fd`.
    public var path: String
    public var sent: Int
    /// Commands the computer never received (its receipts).
    public var lostByLink: Int
    /// SYN_DROPPED reports over the whole soak.
    public var readerDrops: Int
    public var minutes: [Minute]

    public init(rig: String, rateHz: Double, path: String, sent: Int, lostByLink: Int, readerDrops: Int,
                minutes: [Minute])
    {
        self.rig = rig
        self.rateHz = rateHz
        self.path = path
        self.sent = sent
        self.lostByLink = lostByLink
        self.readerDrops = readerDrops
        self.minutes = minutes
    }

    /// One minute of the soak.
    public struct Minute: Sendable, Equatable {
        /// From 1.
        public var minute: Int
        public var sent: Int
        /// Commands whose evdev frame was seen.
        public var verified: Int
        /// Sent but not seen as a frame.
        public var unverified: Int
        public var latency: LatencySummary
        /// The computer side's VmRSS at the end of the minute, KiB.
        public var residentKiB: Int?

        public init(minute: Int, sent: Int, verified: Int, unverified: Int, latency: LatencySummary,
                    residentKiB: Int?)
        {
            self.minute = minute
            self.sent = sent
            self.verified = verified
            self.unverified = unverified
            self.latency = latency
            self.residentKiB = residentKiB
        }
    }

    /// soak.json, pretty-printed with a final newline; each minute has its p50 and p99 as measured (not rounded).
    public var jsonText: String {
        let minutesJSON: [JSONValue] = minutes.map { minute in
            .object(JSONObject([
                ("minute", .number(Double(minute.minute))), ("sent", .number(Double(minute.sent))),
                ("verified", .number(Double(minute.verified))), ("unverified", .number(Double(minute.unverified))),
                ("p50Ms", minute.latency.p50.map(JSONValue.number) ?? .null),
                ("p99Ms", minute.latency.p99.map(JSONValue.number) ?? .null),
                ("residentKiB", minute.residentKiB.map { .number(Double($0)) } ?? .null),
            ]))
        }
        let document: JSONValue = .object(JSONObject([
            ("format", .string(Self.format)), ("rig", .string(rig)), ("rateHz", .number(rateHz)),
            ("path", .string(path)), ("sent", .number(Double(sent))), ("lostByLink", .number(Double(lostByLink))),
            ("readerDrops", .number(Double(readerDrops))), ("minutes", .array(minutesJSON)),
        ]))
        return JSONWriter(pretty: true).string(document) + "\n"
    }
}
