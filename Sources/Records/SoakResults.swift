package import LatencyStats
import StrictJSON

/// What `hil soak` measured (soak.json, format `hil-soak/1`): totals, and every minute's counts, latency and the
/// computer's memory.
package struct SoakResults: Sendable, Equatable {
    /// The format this version writes.
    package static let format = "hil-soak/1"

    package var rig: String
    package var rateHz: Double
    /// The write path: `dbus` or `fd`.
    package var path: String
    package var sent: Int
    /// Commands the computer never received (its receipts).
    package var lostByLink: Int
    /// SYN_DROPPED reports over the whole soak.
    package var readerDrops: Int
    package var minutes: [Minute]
    /// The keys and buttons the kernel held at the end (EVIOCGKEY): none, or the soak failed.
    package var heldAtEnd: [String] = []
    /// How the sends were timed (`SendSchedule`): dithered within each slot, or regular.
    package var pacing = ""

    package init(rig: String, rateHz: Double, path: String, sent: Int, lostByLink: Int, readerDrops: Int,
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
    package struct Minute: Sendable, Equatable {
        /// From 1.
        package var minute: Int
        package var sent: Int
        /// Commands whose evdev frame was seen.
        package var verified: Int
        /// Sent but not seen as a frame.
        package var unverified: Int
        package var latency: LatencySummary
        /// The computer side's VmRSS at the end of the minute, KiB.
        package var residentKiB: Int?

        package init(minute: Int, sent: Int, verified: Int, unverified: Int, latency: LatencySummary,
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
    package var jsonText: String {
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
            ("readerDrops", .number(Double(readerDrops))), ("heldAtEnd", .array(heldAtEnd.map(JSONValue.string))), ("pacing", .string(pacing)),
            ("minutes", .array(minutesJSON)),
        ]))
        return JSONWriter(pretty: true).string(document) + "\n"
    }
}
