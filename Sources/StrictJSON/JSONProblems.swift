/// Collects every problem of a document while reading on, so a person sees them all at once.
public struct JSONProblems: Sendable {
    public private(set) var list: [JSONSchemaError] = []

    public init() {}

    /// Runs a read; records its problem and returns nil when it failed.
    @discardableResult
    public mutating func attempt<T>(_ read: () throws(JSONSchemaError) -> T) -> T? {
        do {
            return try read()
        } catch {
            list.append(error)
            return nil
        }
    }

    public mutating func append(_ problem: JSONSchemaError) {
        list.append(problem)
    }
}

extension JSONProblems {
    /// Every key of `object` not in `allowed`, each its own problem with its path (a reader that lists every problem
    /// must not stop at the first unknown key, as `JSONObject.rejectUnknownKeys` does for the wire decoders).
    public mutating func rejectUnknownKeys(of object: JSONObject, allowed: [String], at path: JSONPath) {
        list += object.unknownKeyProblems(allowed: allowed, at: path)
    }
}

extension JSONObject {
    /// Every key not in `allowed`, each a problem with its path and a "did you mean".
    public func unknownKeyProblems(allowed: [String], at path: JSONPath) -> [JSONSchemaError] {
        keys.filter { !allowed.contains($0) }.map { JSONSchemaError(.unknownKey, path.appending($0), Self.unknownKey($0, allowed: allowed)) }
    }
}
