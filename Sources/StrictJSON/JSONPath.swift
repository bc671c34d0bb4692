/// Where a value sits in a document: `steps[2].expect.withinMs`. The empty path is the document itself.
public struct JSONPath: Sendable, Hashable, CustomStringConvertible {
    public enum Component: Sendable, Hashable {
        case key(String)
        case index(Int)
    }

    public private(set) var components: [Component]

    public init(_ components: [Component] = []) {
        self.components = components
    }

    public static let root = JSONPath()

    public func appending(_ key: String) -> JSONPath {
        JSONPath(components + [.key(key)])
    }

    public func appending(_ index: Int) -> JSONPath {
        JSONPath(components + [.index(index)])
    }

    /// `steps[2].expect.withinMs`; `(document)` for the root. Keys that are not plain identifiers are quoted.
    public var description: String {
        if components.isEmpty { return "(document)" }
        var text = ""
        for component in components {
            switch component {
            case .index(let index):
                text += "[\(index)]"
            case .key(let key):
                let plain = !key.isEmpty && key.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }
                if plain {
                    text += text.isEmpty ? key : ".\(key)"
                } else {
                    text += "[\"\(key)\"]"
                }
            }
        }
        return text
    }
}
