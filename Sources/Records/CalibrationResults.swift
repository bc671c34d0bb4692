import StrictJSON

/// What `hil calibrate` measured (calibrate.json, format `hil-calibrate/1`): per transport and injected delay, the
/// latency's p50 and its shift from the transport's undelayed p50 with a 95 % bootstrap interval. The one owner of
/// the format.
package struct CalibrationResults: Sendable, Equatable {
    package static let format = "hil-calibrate/1"

    /// One transport at one injected delay, its streams of every round pooled.
    package struct Row: Sendable, Equatable {
        package var transport: String
        package var injectedMs: Double
        package var sent: Int
        /// Commands whose evdev frame was matched; the latencies are theirs.
        package var verified: Int
        /// Send → evdev frame, and its link stage (handed to the link → the computer received it).
        package var p50Ms: Double?
        package var linkP50Ms: Double?
        /// p50 minus the p50 of the same transport with no delay injected; nil for the baseline and when either has
        /// no samples.
        package var shiftP50Ms: Double?
        package var shiftLowMs: Double?
        package var shiftHighMs: Double?

        package init(transport: String, injectedMs: Double, sent: Int, verified: Int, p50Ms: Double?, linkP50Ms: Double?,
                     shiftP50Ms: Double? = nil, shiftLowMs: Double? = nil, shiftHighMs: Double? = nil)
        {
            self.transport = transport
            self.injectedMs = injectedMs
            self.sent = sent
            self.verified = verified
            self.p50Ms = p50Ms
            self.linkP50Ms = linkP50Ms
            self.shiftP50Ms = shiftP50Ms
            self.shiftLowMs = shiftLowMs
            self.shiftHighMs = shiftHighMs
        }

        /// The measured shift minus the injected delay; nil without a shift.
        package var errorMs: Double? { shiftP50Ms.map { $0 - injectedMs } }
    }

    package var rig: String
    package var kernel: String
    /// How each delay was injected, per transport (`netem delay 5ms on veth-phone in hil-phone`, …).
    package var injection: [String: String]
    package var rateHz: Double
    /// Commands per transport, delay and round; the rounds take the delays in turn.
    package var count: Int
    package var rounds: Int
    package var rows: [Row]
    /// Each stream that ended with a key or button held (EVIOCGKEY), as `ble with 5 ms injected: BTN_LEFT`: none, or
    /// the calibration failed.
    package var heldAtEnd: [String] = []

    package init(rig: String, kernel: String, injection: [String: String], rateHz: Double, count: Int, rounds: Int, rows: [Row]) {
        self.rig = rig
        self.kernel = kernel
        self.injection = injection
        self.rateHz = rateHz
        self.count = count
        self.rounds = rounds
        self.rows = rows
    }

    package var jsonText: String {
        func number(_ value: Double?) -> JSONValue { value.map { .number(($0 * 1000).rounded() / 1000) } ?? .null }
        let rowValues: [JSONValue] = rows.map { row in
            .object(JSONObject([
                ("transport", .string(row.transport)), ("injectedMs", .number(row.injectedMs)),
                ("sent", .number(Double(row.sent))), ("verified", .number(Double(row.verified))),
                ("p50Ms", number(row.p50Ms)), ("linkP50Ms", number(row.linkP50Ms)), ("shiftP50Ms", number(row.shiftP50Ms)),
                ("shiftIntervalMs", row.shiftLowMs.flatMap { low in row.shiftHighMs.map { .array([number(low), number($0)]) } } ?? .null),
            ]))
        }
        let document: JSONValue = .object(JSONObject([
            ("format", .string(Self.format)), ("rig", .string(rig)), ("kernel", .string(kernel)),
            ("injection", .object(JSONObject(injection.keys.sorted().map { ($0, .string(injection[$0]!)) }))),
            ("rateHz", .number(rateHz)), ("count", .number(Double(count))), ("rounds", .number(Double(rounds))),
            ("rows", .array(rowValues)), ("heldAtEnd", .array(heldAtEnd.map(JSONValue.string))),
        ]))
        return JSONWriter(pretty: true).string(document) + "\n"
    }
}
