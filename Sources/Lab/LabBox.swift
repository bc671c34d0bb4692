/// One box of the lab as its place's resources describe it (Rigs/labgrid/exporter.yaml): where to reach it over
/// SSH (labgrid's `NetworkService`) and what rig it has (our `HILRig` resource).
package struct LabBox: Sendable, Equatable {
    package var place: String
    package var address: String
    package var port: Int
    package var username: String
    /// The HILRig resource's parameters: kind, adapters, bluez, kernel, transports, checkout, hil.
    package var rig: [String: String]

    package init(place: String, address: String, port: Int = 22, username: String = "root", rig: [String: String] = [:]) {
        self.place = place
        self.address = address
        self.port = port
        self.username = username
        self.rig = rig
    }

    /// The project's checkout on the box, where `hil` runs (HILRig `checkout`).
    package var checkout: String { rig["checkout"] ?? "." }
    /// The `hil` to run there, relative to the checkout unless absolute (HILRig `hil`).
    package var hil: String { rig["hil"] ?? ".build/debug/hil" }

    /// Reads `labgrid-client -p PLACE env`'s YAML: `targets: / NAME: / resources: / - CLASS: / key: value`.
    ///
    /// - Throws: `LabError` naming the place when it has no NetworkService or no HILRig.
    package init(place: String, env text: String) throws(LabError) {
        var resources: [String: [String: String]] = [:]
        var current: String?
        for raw in text.split(separator: "\n", omittingEmptySubsequences: true) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("- "), line.hasSuffix(":") {
                let name = String(line.dropFirst(2).dropLast())
                current = name
                resources[name, default: [:]] = [:]
            } else if let name = current, let colon = line.firstIndex(of: ":"), raw.hasPrefix("        ") {
                let key = String(line[..<colon])
                var value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                if value.count >= 2, let first = value.first, first == "'" || first == "\"", value.last == first {
                    value = String(value.dropFirst().dropLast())
                }
                resources[name]?[key] = value
            }
        }
        guard let service = resources["NetworkService"], let address = service["address"], !address.isEmpty else {
            throw LabError(
                .place, "place \(place) has no NetworkService resource with an address: hil reaches a box over SSH",
                hint: "add a NetworkService to the box's exporter configuration (Rigs/labgrid/exporter.yaml) and `labgrid-client -p \(place) add-match` it")
        }
        guard let rig = resources["HILRig"] else {
            throw LabError(
                .place, "place \(place) has no HILRig resource: hil needs to know where its checkout is on the box",
                hint: "add the HILRig resource to the box's exporter configuration (Rigs/labgrid/exporter.yaml)")
        }
        self.init(place: place, address: address, port: Int(service["port"] ?? "") ?? 22,
                  username: service["username"] ?? "root", rig: rig)
    }

    /// What results.json keeps of the box beside its shard's environment.
    package var summary: String {
        let facts = ["kind", "adapters", "bluez", "kernel", "transports"].compactMap { key in rig[key].map { "\(key) \($0)" } }
        return "\(place) (\(username)@\(address):\(port)\(facts.isEmpty ? "" : "; " + facts.joined(separator: ", ")))"
    }
}
