/// A place in a document a person can go to: 1-based line and column (columns count characters, not bytes).
public struct JSONLocation: Sendable, Hashable, CustomStringConvertible {
    public var line: Int
    public var column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    /// `12:5`, as compilers and editors write it after a file name.
    public var description: String { "\(line):\(column)" }
}

/// Where each value of a parsed document was written: an object's member at its key, an array's element at its
/// first character, the document at its first value. `JSONParser.parseLocated` records it, so a problem found
/// after parsing (a JSON path) can be shown at its line and column.
public struct JSONPositions: Sendable {
    private var table: [JSONPath: JSONLocation] = [:]

    public init() {}

    mutating func record(_ path: JSONPath, _ location: JSONLocation) {
        table[path] = location
    }

    /// Where `path` was written, or where its nearest written ancestor was (a missing key is reported at the
    /// object that lacks it); nil only for an empty table.
    public func location(of path: JSONPath) -> JSONLocation? {
        var components = path.components
        while true {
            if let location = table[JSONPath(components)] { return location }
            if components.isEmpty { return nil }
            components.removeLast()
        }
    }
}

/// Turns byte offsets into lines and columns, for offsets that only grow (the parser records in document order),
/// so a whole document costs one pass.
struct LocationCounter {
    private var offset = 0
    private var line = 1
    private var column = 1

    mutating func location(at target: Int, in bytes: [UInt8]) -> JSONLocation {
        if target < offset { self = LocationCounter() }
        while offset < target && offset < bytes.count {
            let byte = bytes[offset]
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {  // count characters, not UTF-8 continuation bytes
                column += 1
            }
            offset += 1
        }
        return JSONLocation(line: line, column: column)
    }
}
