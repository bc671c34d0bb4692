package import StrictJSON

extension RigDefinition {
    /// The time rules' limits a rig states per build (`"stageLimits"`, docs/scenarios.md "What every run checks"):
    /// the computer's own stage and the hosts' share of a link stage. A rig file without them gets `StageLimits()`,
    /// a real machine's.
    package struct StageLimits: Sendable, Hashable {
        package struct Build: Sendable, Hashable {
            /// The median of the computer's writes after its first (a write received → its first frame written).
            package var computerMedianMs: Double
            /// Any one write's.
            package var computerMaxMs: Double
            /// The hosts' share of a link stage, before the rig's latency scale.
            package var linkHostMs: Double

            package init(computerMedianMs: Double, computerMaxMs: Double, linkHostMs: Double) {
                self.computerMedianMs = computerMedianMs
                self.computerMaxMs = computerMaxMs
                self.linkHostMs = linkHostMs
            }
        }

        package var release = Build(computerMedianMs: 1, computerMaxMs: 10, linkHostMs: 5)
        package var debug = Build(computerMedianMs: 2, computerMaxMs: 20, linkHostMs: 8)

        package init() {}

        /// `release` or `debug`.
        package func build(_ name: String) -> Build { name == "debug" ? debug : release }
    }

    /// `{"release": {"computerMedianMs": 2.5, "computerMaxMs": 25, "linkHostMs": 8}, "debug": {…}}`: both builds.
    static func stageLimits(_ value: JSONValue, _ found: inout [JSONSchemaError]) -> StageLimits {
        var limits = StageLimits()
        let path = JSONPath.root.appending("stageLimits")
        guard case .object(let object) = value else {
            found.append(JSONSchemaError(path, "expected {\"release\": {…}, \"debug\": {…}}"))
            return limits
        }
        found += object.unknownKeyProblems(allowed: ["release", "debug"], at: path)
        for build in ["release", "debug"] {
            guard let entry = object[build] else {
                found.append(JSONSchemaError(path.appending(build), "missing: state the limits of both builds"))
                continue
            }
            let at = path.appending(build)
            guard case .object(let fields) = entry else {
                found.append(JSONSchemaError(at, "expected {\"computerMedianMs\": …, \"computerMaxMs\": …, \"linkHostMs\": …}"))
                continue
            }
            found += fields.unknownKeyProblems(allowed: ["computerMedianMs", "computerMaxMs", "linkHostMs"], at: at)
            func number(_ key: String) -> Double? {
                do { return try fields.required(key, at: at).number(at: at.appending(key)) } catch {
                    found.append(error)
                    return nil
                }
            }
            guard let median = number("computerMedianMs"), let most = number("computerMaxMs"), let host = number("linkHostMs") else { continue }
            for (key, ms) in [("computerMedianMs", median), ("computerMaxMs", most), ("linkHostMs", host)] where !(ms > 0 && ms <= 1000) {
                found.append(JSONSchemaError(at.appending(key), "\(JSONWriter.numberText(ms)) ms is outside (0, 1000]"))
            }
            if median > most { found.append(JSONSchemaError(at.appending("computerMedianMs"), "above computerMaxMs")) }
            let limit = StageLimits.Build(computerMedianMs: median, computerMaxMs: most, linkHostMs: host)
            if build == "release" { limits.release = limit } else { limits.debug = limit }
        }
        return limits
    }
}
