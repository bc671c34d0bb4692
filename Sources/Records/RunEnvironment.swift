package import StrictJSON

/// Where and how one run (or one shard of it) ran: the `environment` object of results.json.
/// Every field is optional: older files have none, and a field may be `null` where it was not known.
package struct RunEnvironment: Sendable, Equatable {
    /// The shard this environment ran, when the run was sharded.
    package var shard: RunShard?
    package var kernel: String?
    package var bluez: String?
    package var rig: String?
    /// The factor the rig multiplies every latency limit by (4 in the vm rig).
    package var latencyScale: Double?
    package var peripheralAdapter: String?
    package var centralAdapter: String?
    package var host: String?
    /// `dbus` or `fd` when the run overrode every scenario's write path.
    package var writePath: String?
    /// How long the rig had been up when the run started, in ms: in the vm rig the guest's boot and the rig's
    /// bring-up (its uptime); nil where that is not the rig's own time (a hardware box).
    package var rigUpMs: Double?
    /// How many scenarios ran at once (`hil run --lanes`); nil in files from before lanes (one at a time).
    package var lanes: Int?
    /// The radio that carried ble and hid: the rig's controllers (`btvirt`: emulated, `existing`: the adapters'
    /// own radios). nil in files from before it was recorded.
    package var radio: String?
    /// How the emulated radio timed ACL data (Rigs/README.md, "The radio model"): `immediate` or `connectionEvents`;
    /// nil with a real radio, and in files from before it was recorded.
    package var radioModel: String?
    /// The connection interval of the `connectionEvents` model, in ms; nil otherwise.
    package var radioIntervalMs: Double?
    /// The `connectionEvents` model's packet error rate (each failed transmission sent again); nil when none.
    package var radioErrorRate: Double?
    /// How `hil` was built: `debug` or `release`. nil in files from before it was recorded.
    package var build: String?
    /// The source commit `hil` was built from (git's hash, `+dirty` with uncommitted changes), nil where unknown.
    package var commit: String?
    /// The phone that drove ble and hid (`hil run --phone`): `bluez`, or `bumble:PROFILE`; nil in files from before.
    package var phone: String?
    /// Keys this version does not know, kept as they were (the format may grow).
    package var additional: JSONObject

    package init(shard: RunShard? = nil, kernel: String? = nil, bluez: String? = nil, rig: String? = nil,
                latencyScale: Double? = nil, peripheralAdapter: String? = nil, centralAdapter: String? = nil,
                host: String? = nil, writePath: String? = nil, rigUpMs: Double? = nil, lanes: Int? = nil,
                radio: String? = nil, radioModel: String? = nil, radioIntervalMs: Double? = nil, radioErrorRate: Double? = nil,
                build: String? = nil, commit: String? = nil, phone: String? = nil, additional: JSONObject = JSONObject())
    {
        self.shard = shard
        self.kernel = kernel
        self.bluez = bluez
        self.rig = rig
        self.latencyScale = latencyScale
        self.peripheralAdapter = peripheralAdapter
        self.centralAdapter = centralAdapter
        self.host = host
        self.writePath = writePath
        self.rigUpMs = rigUpMs
        self.lanes = lanes
        self.radio = radio
        self.radioModel = radioModel
        self.radioIntervalMs = radioIntervalMs
        self.radioErrorRate = radioErrorRate
        self.build = build
        self.commit = commit
        self.phone = phone
        self.additional = additional
    }

    /// The `environment` object: the shard first (with `withShard`), then the known keys in `keys` order, then the
    /// additional ones. An unknown value is written as `null` with `nullWhenUnknown` (as `hil run` writes every
    /// key), else left out (a merge writes what it knows).
    package func json(withShard: Bool = false, nullWhenUnknown: Bool = false) -> JSONObject {
        var object = JSONObject()
        if withShard, let shard { object.set("shard", shard.json) }
        let values: [JSONValue?] = [
            kernel.map(JSONValue.string), bluez.map(JSONValue.string), rig.map(JSONValue.string), latencyScale.map(JSONValue.number),
            peripheralAdapter.map(JSONValue.string), centralAdapter.map(JSONValue.string), host.map(JSONValue.string),
            writePath.map(JSONValue.string), rigUpMs.map { .number(($0 * 10).rounded() / 10) },
            lanes.map { .number(Double($0)) }, radio.map(JSONValue.string), radioModel.map(JSONValue.string),
            radioIntervalMs.map(JSONValue.number), radioErrorRate.map(JSONValue.number), build.map(JSONValue.string),
            commit.map(JSONValue.string), phone.map(JSONValue.string),
        ]
        for (key, value) in zip(Self.keys, values) {
            if let value { object.set(key, value) } else if nullWhenUnknown { object.set(key, .null) }
        }
        for entry in additional.entries { object.set(entry.key, entry.value) }
        return object
    }

    /// The known keys of the `environment` object, in the order `hil run` writes them.
    static let keys = ["kernel", "bluez", "rig", "latencyScale", "peripheralAdapter", "centralAdapter", "host", "writePath", "rigUpMs", "lanes",
                       "radio", "radioModel", "radioIntervalMs", "radioErrorRate", "build", "commit", "phone"]

    /// The radio model in words: `immediate`, `connection events every 15 ms`; nil when not recorded.
    package var radioSummary: String? {
        guard let radioModel else { return nil }
        guard radioModel == "connectionEvents", let radioIntervalMs else { return radioModel }
        return "connection events every \(JSONWriter.numberText(radioIntervalMs)) ms"
            + (radioErrorRate.map { $0 > 0 ? ", packet error rate \(JSONWriter.numberText($0))" : "" } ?? "")
    }
}
