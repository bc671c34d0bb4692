import Foundation

/// docs/architecture.md's table of layers, as written there (never computed from Package.swift's arrows, or it could
/// not disagree with them): lines `8  Runner · Bench   what they are` in its "Who may import whom" block.
struct LayerTable {
    /// Each module's layer.
    let layers: [String: Int]

    static let row = try! NSRegularExpression(pattern: #"^(\d+) +([\w-]+(?: · [\w-]+)*)"#)

    /// Reads the first fenced block after "Who may import whom" in `document`.
    init(document: String) throws {
        guard let heading = document.range(of: "Who may import whom"),
              let open = document[heading.upperBound...].range(of: "```\n"),
              let close = document[open.upperBound...].range(of: "```") else {
            throw LayerTableError("docs/architecture.md has no fenced layer table after \"Who may import whom\": write it back")
        }
        var layers: [String: Int] = [:]
        for line in document[open.upperBound..<close.lowerBound].split(separator: "\n").map(String.init) {
            guard let match = Self.row.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)),
                  let number = Range(match.range(at: 1), in: line), let names = Range(match.range(at: 2), in: line) else {
                throw LayerTableError("docs/architecture.md's layer table has a line that is not `N  Module · Module   what`: \(line)")
            }
            for name in line[names].components(separatedBy: " · ") {
                if let earlier = layers[name] {
                    throw LayerTableError("docs/architecture.md's layer table has \(name) in layers \(earlier) and \(line[number])")
                }
                layers[name] = Int(line[number])
            }
        }
        self.layers = layers
    }

    /// The arrows of `arrows` (a module and what it imports) that do not go strictly down the table, and the
    /// modules the table does not have, each as a sentence that says what to change.
    func violations(_ arrows: [(from: String, to: [String])], known: Set<String>) -> [String] {
        var found: [String] = []
        for (module, dependencies) in arrows {
            guard let layer = layers[module] else {
                found.append("\(module) is not in docs/architecture.md's layer table: add it to the layer it belongs in")
                continue
            }
            for dependency in dependencies where known.contains(dependency) {
                guard let below = layers[dependency] else {
                    found.append("\(dependency) (imported by \(module)) is not in docs/architecture.md's layer table: add it")
                    continue
                }
                if below >= layer {
                    found.append("\(module) (layer \(layer)) imports \(dependency) (layer \(below)): an arrow must go down the "
                                 + "layer table in docs/architecture.md; move the code, or the module to another layer there")
                }
            }
        }
        return found
    }
}

struct LayerTableError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
