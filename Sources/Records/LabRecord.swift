import StrictJSON

/// What `hil lab run` did with each box, written as `lab.json` beside the merged results.json: which place, its
/// health check, its shard, and whether it was given back. Format `hil-lab/1`.
package struct LabRecord: Sendable, Equatable {
    package struct Box: Sendable, Equatable {
        package var place: String
        /// `user@address:port` and the rig's facts, as `LabBox.summary` gives them.
        package var box: String
        /// `ok` or `failed`.
        package var health: String
        /// The health check's last lines when it failed.
        package var healthOutput: String?
        /// `i/n`, nil for a box that ran nothing.
        package var shard: RunShard?
        /// The box's own results.json, fetched, relative to lab.json's folder.
        package var results: String?
        /// True once its place was unlocked.
        package var released: Bool

        package init(place: String, box: String, health: String, healthOutput: String? = nil, shard: RunShard? = nil,
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

    package var coordinator: String
    package var boxes: [Box]
    /// `passed`, `failed`, `interrupted`, `timed out`, `error`.
    package var outcome: String
    package var wallMs: Double

    package init(coordinator: String, boxes: [Box], outcome: String, wallMs: Double) {
        self.coordinator = coordinator
        self.boxes = boxes
        self.outcome = outcome
        self.wallMs = wallMs
    }

    package var jsonText: String {
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
