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
