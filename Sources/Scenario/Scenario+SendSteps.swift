import StrictJSON

extension Scenario {
    /// A `send` step's `report` items go to the hid transport's report characteristic and its `packet` items to the
    /// udp transport's movement port: a scenario with them must apply to that transport only (`run.transports`).
    /// Commands go on every transport.
    static func sendStepProblems(_ document: JSONValue, run: RunSettings) -> [JSONSchemaError] {
        guard case .object(let top) = document, case .array(let steps)? = top["steps"] else { return [] }
        var first: [String: String] = [:]
        for (index, step) in steps.enumerated() {
            guard case .object(let object) = step, case .array(let items)? = object["send"] else { continue }
            for (itemIndex, item) in items.enumerated() {
                guard case .object(let fields) = item else { continue }
                for key in ["report", "packet"] where fields[key] != nil && first[key] == nil {
                    first[key] = "steps[\(index)].send[\(itemIndex)].\(key)"
                }
            }
        }
        let transportsPath = JSONPath.root.appending("run").appending("transports")
        if let report = first["report"], let packet = first["packet"] {
            return [JSONSchemaError(
                .root.appending("steps"),
                "\(report) is a hid report and \(packet) a udp packet: a scenario runs on one of those transports, not both")]
        }
        for (key, transport) in [("report", Transport.hid), ("packet", Transport.udp)] {
            guard let location = first[key], run.transports != [transport] else { continue }
            let found = run.transports.map { "it applies to \($0.map(\.rawValue))" } ?? "it applies to every transport"
            return [JSONSchemaError(
                transportsPath,
                "\(location) is a \(transport == .hid ? "hid report" : "udp packet"), sent on the \(transport.rawValue) transport only, but \(found): set \"run\": {\"transport\": \"\(transport.rawValue)\", \"transports\": [\"\(transport.rawValue)\"]}")]
        }
        return []
    }
}
