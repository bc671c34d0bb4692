/// What may move a run's latencies besides the code under test: the kernel, BlueZ, the rig, its radio, how `hil`
/// was built, the host and how many lanes ran at once. A history marks the runs where one changed, and a run is
/// compared only with earlier runs under the same conditions.
package struct RunConditions: Sendable, Equatable {
    /// One condition that differs between two runs.
    package struct Change: Sendable, Equatable, CustomStringConvertible {
        package var name: String
        package var before: String
        package var after: String

        package init(name: String, before: String, after: String) {
            self.name = name
            self.before = before
            self.after = after
        }

        /// `kernel 6.1.0-56-amd64 → 6.1.0-57-amd64`
        package var description: String { "\(name) \(before) → \(after)" }
    }

    /// The conditions' names, in the order reports list them.
    package static let names = ["kernel", "BlueZ", "rig", "radio", "build", "host", "lanes"]

    /// The known conditions by name; a condition a file does not record is absent.
    package var values: [String: String]

    package init(values: [String: String]) {
        self.values = values
    }

    /// The conditions of a run: of its one environment, or of its shards' (the different values of a condition,
    /// sorted and joined with ", ").
    package init(_ environments: [RunEnvironment]) {
        var values: [String: String] = [:]
        for name in Self.names {
            let known = Set(environments.compactMap { Self.value(name, of: $0) })
            if !known.isEmpty { values[name] = known.sorted().joined(separator: ", ") }
        }
        self.values = values
    }

    /// The conditions known in both runs that differ, in `names` order. A condition one run does not record
    /// (an older results.json) is no change: it is not known to differ.
    package func changes(since earlier: RunConditions) -> [Change] {
        Self.names.compactMap { name in
            guard let after = values[name], let before = earlier.values[name], after != before else { return nil }
            return Change(name: name, before: before, after: after)
        }
    }

    private static func value(_ name: String, of environment: RunEnvironment) -> String? {
        switch name {
        case "kernel": environment.kernel
        case "BlueZ": environment.bluez
        case "rig": environment.rig
        // The radio and, when it kept connection events, their interval: an immediate run reads as before the
        // model was recorded, so older files compare with it.
        case "radio":
            environment.radioModel == "connectionEvents"
                ? [environment.radio, environment.radioSummary].compactMap { $0 }.joined(separator: ", ") : environment.radio
        case "build": environment.build
        case "host": environment.host
        case "lanes": environment.lanes.map(String.init)
        default: nil
        }
    }
}

extension RunResults {
    /// The run's conditions (`RunConditions`), from its environments; a file without any has only its rig.
    package var conditions: RunConditions {
        environments.isEmpty ? RunConditions([RunEnvironment(rig: rig)]) : RunConditions(environments)
    }

    /// The emulated radio's model in words (`connection events every 15 ms`, `immediate`): the environments' (several
    /// different ones joined with ", "); nil where none records one (a real radio, an older file).
    package var radioSummary: String? {
        let models = environments.compactMap(\.radioSummary).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        return models.isEmpty ? nil : models.joined(separator: ", ")
    }

    /// The phone that drove ble and hid (`bluez`, `bumble:ios-like`): the environments' (several joined with ", ");
    /// nil where none records one.
    package var phone: String? {
        let phones = environments.compactMap(\.phone).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        return phones.isEmpty ? nil : phones.joined(separator: ", ")
    }

    /// The commit hil was built from: the environments' (several different ones joined with ", "); nil where no
    /// environment records one.
    package var commit: String? {
        let commits = environments.compactMap(\.commit).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        return commits.isEmpty ? nil : commits.joined(separator: ", ")
    }
}
