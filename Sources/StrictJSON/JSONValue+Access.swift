/// A problem found in a document, with the JSON path of the offending value.
///
/// It has the package's error shape, what, code and hint (System's `ExplainedError`: this module does not depend
/// on System, and `hil` declares the conformance). There is no hint: the path says where to fix it.
public struct JSONSchemaError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of problem.
    public enum Code: String, Sendable, Hashable {
        /// A value of another JSON type than the one expected.
        case wrongType
        /// A number outside the range allowed, or not whole where a whole number is expected.
        case outOfRange
        /// A string that names none of the allowed values.
        case unknownValue
        /// A required key is missing.
        case missingKey
        /// A key that is not allowed here.
        case unknownKey
        /// A value the reader refuses by its own rules (the message says which).
        case invalid
    }

    public var code: Code
    public var path: JSONPath
    public var message: String

    /// A problem of kind `.invalid`: a value the reader refuses by its own rules.
    public init(_ path: JSONPath, _ message: String) {
        self.init(.invalid, path, message)
    }

    public init(_ code: Code, _ path: JSONPath, _ message: String) {
        self.code = code
        self.path = path
        self.message = message
    }

    /// `cursorMove.delta[0]: expected a number, found a string`
    public var description: String { what }
    /// The path and the message: `cursorMove.delta[0]: expected a number, found a string`.
    public var what: String { "\(path): \(message)" }
    /// None: the path says where to fix it.
    public var hint: String? { nil }
}

/// Typed reads of a `JSONValue` that fail with the value's path and what was expected.
extension JSONValue {
    public func object(at path: JSONPath) throws(JSONSchemaError) -> JSONObject {
        guard case .object(let object) = self else { throw mismatch("an object", at: path) }
        return object
    }

    public func array(at path: JSONPath) throws(JSONSchemaError) -> [JSONValue] {
        guard case .array(let elements) = self else { throw mismatch("an array", at: path) }
        return elements
    }

    public func string(at path: JSONPath) throws(JSONSchemaError) -> String {
        guard case .string(let text) = self else { throw mismatch("a string", at: path) }
        return text
    }

    public func bool(at path: JSONPath) throws(JSONSchemaError) -> Bool {
        guard case .bool(let flag) = self else { throw mismatch("a boolean", at: path) }
        return flag
    }

    /// A finite number whose magnitude is at most `limit`.
    public func number(at path: JSONPath, magnitude limit: Double = .greatestFiniteMagnitude)
        throws(JSONSchemaError) -> Double
    {
        guard case .number(let number) = self else { throw mismatch("a number", at: path) }
        guard abs(number) <= limit else {
            throw JSONSchemaError(
                .outOfRange, path, "\(JSONWriter.numberText(number)) is outside ±\(JSONWriter.numberText(limit))")
        }
        return number
    }

    /// A whole number in `range` (`10` and `10.0` both count as whole).
    public func integer(at path: JSONPath, in range: ClosedRange<Int>) throws(JSONSchemaError) -> Int {
        guard case .number(let number) = self else { throw mismatch("a whole number", at: path) }
        guard number.rounded() == number, number >= Double(range.lowerBound), number <= Double(range.upperBound)
        else {
            throw JSONSchemaError(
                .outOfRange, path, "expected a whole number in \(range.lowerBound)...\(range.upperBound), found \(JSONWriter.numberText(number))")
        }
        return Int(number)
    }

    /// A string naming one case of `E`, or an error listing the allowed names.
    public func enumeration<E: RawRepresentable & CaseIterable>(_ type: E.Type, at path: JSONPath)
        throws(JSONSchemaError) -> E where E.RawValue == String
    {
        let text = try string(at: path)
        guard let value = E(rawValue: text) else {
            let names = E.allCases.map(\.rawValue)
            let allowed = names.map { "\"\($0)\"" }.joined(separator: ", ")
            throw JSONSchemaError(.unknownValue, path, "unknown value \"\(text)\"\(Suggestion.phrase(for: text, among: names)); expected one of \(allowed)")
        }
        return value
    }

    private func mismatch(_ expected: String, at path: JSONPath) -> JSONSchemaError {
        JSONSchemaError(.wrongType, path, "expected \(expected), found \(kindName)")
    }
}

extension JSONObject {
    /// The value of a key that must be present.
    public func required(_ key: String, at path: JSONPath) throws(JSONSchemaError) -> JSONValue {
        guard let value = self[key] else { throw JSONSchemaError(.missingKey, path, "missing required key \"\(key)\"") }
        return value
    }

    /// Fails on any key outside `allowed`, naming it, the allowed key it most likely meant, and the allowed ones.
    public func rejectUnknownKeys(allowed: [String], at path: JSONPath) throws(JSONSchemaError) {
        for key in keys where !allowed.contains(key) {
            throw JSONSchemaError(.unknownKey, path.appending(key), Self.unknownKey(key, allowed: allowed))
        }
    }

    /// `unknown key (did you mean "phone"?); allowed here: "keys", "phone", …`
    package static func unknownKey(_ key: String, allowed: [String]) -> String {
        let list = allowed.isEmpty ? "no keys" : allowed.map { "\"\($0)\"" }.joined(separator: ", ")
        return "unknown key\(Suggestion.phrase(for: key, among: allowed)); allowed here: \(list)"
    }
}
