/// `hil lab status`'s table: one line per place.
package enum LabStatusTable {
    package static func render(_ places: [LabPlace], coordinator: String) -> String {
        guard !places.isEmpty else { return "no places on the coordinator at \(coordinator)" }
        let rows = places.map { place in
            [place.name, place.acquired ?? "free",
             place.tags.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " "),
             place.comment ?? "never checked"]
        }
        let header = ["place", "held by", "tags", "last health check"]
        let widths = (0..<header.count).map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        let lines = ([header] + rows).map { row in
            row.enumerated().map { column, text in
                column == row.count - 1 ? text : text.padding(toLength: widths[column], withPad: " ", startingAt: 0)
            }.joined(separator: "  ")
        }
        let held = places.filter { $0.acquired != nil }.count
        return (lines + ["\(places.count) place(s) at \(coordinator), \(held) held"]).joined(separator: "\n")
    }
}
