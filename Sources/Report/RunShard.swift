public import StrictJSON

/// Which slice of a run a results file holds: `hil run --shard index/count` (1 ≤ index ≤ count).
public struct RunShard: Sendable, Hashable, CustomStringConvertible {
    public var index: Int
    public var count: Int

    public init(index: Int, count: Int) {
        self.index = index
        self.count = count
    }

    /// `2/4`
    public var description: String { "\(index)/\(count)" }

    /// `{"index": 2, "count": 4}`, as results.json has it.
    public var json: JSONValue {
        .object(JSONObject([("index", .number(Double(index))), ("count", .number(Double(count)))]))
    }
}
