import StrictJSON

/// What `hil lab run` did with each box, written as `lab.json` beside the merged results.json: which place, its
/// health check, its shard, and whether it was given back. Format `hil-lab/1`.
public struct LabRecord: Sendable, Equatable {
    public struct Box: Sendable, Equatable {
        public var place: String
        /// `user@address:port` and the rig's facts, as `LabBox.summary` gives them.
        public var box: String
        /// `ok` or `failed`.
        public var health: String
        /// The health check's last lines when it failed.
        public var healthOutput: String?
        /// `i/n`, nil for a box that ran nothing.
        public var shard: RunShard?
        /// The box's own results.json, fetched, relative to lab.json's folder.
        public var results: String?
        /// True once its place was unlocked.
        public var released: Bool

        public init(place: String, box: String, health: String, healthOutput: String? = nil, shard: RunShard? = nil,
                    results: String? = nil, released: Bool = false)
        {
            self.place = place
            self.box = box
            self.health = health
            self.healthOutput = healthOutput
            self.shard = shard
            self.results = results
            self.released = released
        }
    }

    public var coordinator: String
    public var boxes: [Box]
    /// `passed`, `failed`, `interrupted`, `timed out`, `error`.
    public var outcome: String
    public var wallMs: Double

    public init(coordinator: String, boxes: [Box], outcome: String, wallMs: Double) {
        self.coordinator = coordinator
        self.boxes = boxes
        self.outcome = outcome
        self.wallMs = wallMs
    }

    public var jsonText: String {
        let boxes: [JSONValue] = boxes.map { box in
            var object = JSONObject()
            object.set("place", .string(box.place))
            object.set("box", .string(box.box))
            object.set("health", .string(box.health))
            if let output = box.healthOutput { object.set("healthOutput", .string(output)) }
            object.set("shard", box.shard.map { .string($0.description) } ?? .null)
            object.set("results", box.results.map { .string($0) } ?? .null)
            object.set("released", .bool(box.released))
            return .object(object)
        }
        var object = JSONObject()
        object.set("format", "hil-lab/1")
        object.set("coordinator", .string(coordinator))
        object.set("outcome", .string(outcome))
        object.set("wallMs", .number(wallMs.rounded()))
        object.set("boxes", .array(boxes))
        return JSONWriter(pretty: true).string(.object(object)) + "\n"
    }
}
