/// A place as `labgrid-client -v places` lists it.
package struct LabPlace: Sendable, Equatable {
    package var name: String
    package var tags: [String: String] = [:]
    /// `host/user` holding it, nil when free.
    package var acquired: String?
    package var comment: String?

    package init(name: String, tags: [String: String] = [:], acquired: String? = nil, comment: String? = nil) {
        self.name = name
        self.tags = tags
        self.acquired = acquired
        self.comment = comment
    }

    /// Parses `Place 'box1':` blocks with their `tags:`, `acquired:` and `comment:` lines.
    package static func parse(_ text: String) -> [LabPlace] {
        var places: [LabPlace] = []
        for raw in text.split(separator: "\n") {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("Place '"), line.hasSuffix("':") {
                places.append(LabPlace(name: String(line.dropFirst("Place '".count).dropLast(2))))
                continue
            }
            guard !places.isEmpty, raw.hasPrefix("  "), !raw.hasPrefix("    ") else { continue }
            if line.hasPrefix("acquired: ") {
                let holder = String(line.dropFirst("acquired: ".count))
                places[places.count - 1].acquired = holder == "None" ? nil : holder
            } else if line.hasPrefix("comment: ") {
                places[places.count - 1].comment = String(line.dropFirst("comment: ".count))
            } else if line.hasPrefix("tags: ") {
                // labgrid joins them with ", "; a value may hold commas of its own (transports=ble,tcp).
                for pair in String(line.dropFirst("tags: ".count)).components(separatedBy: ", ") {
                    guard let equals = pair.firstIndex(of: "=") else { continue }
                    places[places.count - 1].tags[String(pair[..<equals])] = String(pair[pair.index(after: equals)...])
                }
            }
        }
        return places
    }
}
