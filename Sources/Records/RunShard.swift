package import StrictJSON

/// Which slice of a run a results file holds: `hil run --shard index/count` (1 ≤ index ≤ count).
package struct RunShard: Sendable, Hashable, CustomStringConvertible {
    package var index: Int
    package var count: Int

    package init(index: Int, count: Int) {
        self.index = index
        self.count = count
    }

    /// `2/4`
    package var description: String { "\(index)/\(count)" }

    /// `{"index": 2, "count": 4}`, as results.json has it.
    package var json: JSONValue {
        .object(JSONObject([("index", .number(Double(index))), ("count", .number(Double(count)))]))
    }
}
