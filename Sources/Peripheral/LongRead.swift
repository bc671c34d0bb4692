import DBus

/// A characteristic read in parts. ATT's Read Request returns a value's first MTU−1 bytes; a phone reads the rest with
/// Read Blob Requests, each from an offset, which bluetoothd passes to `ReadValue` as its `offset` option and answers
/// with what `ReadValue` returns, cut to MTU−1 (so the value must start at the offset). At MTU 23 the pairing read's
/// JSON (about 66 bytes) takes a Read and three Read Blobs.
///
/// Each central's Read Blobs continue the value its last read from offset 0 returned: a pairing read's
/// `secondsRemaining` can tick between two parts, and the value's length with it, so parts of two values would not
/// join. A Read Blob with no such value (the computer restarted in between) reads a fresh one.
struct LongRead: Sendable {
    /// The value each central read last from offset 0.
    private var values: [String: [UInt8]] = [:]
    /// Centrals remembered at most: a new one beyond it forgets the others (their Read Blobs read afresh).
    static let remembered = 16

    /// The request's `offset` option (0 when absent).
    static func offset(_ options: DBusValue) -> Int {
        Int(clamping: options.dictionaryValue?["offset"]?.integerValue ?? 0)
    }

    /// `value` from `offset` on: empty at its end, as a Read Blob at the value's length is answered.
    /// - Throws: `org.bluez.Error.InvalidOffset` past the end (bluetoothd answers ATT error 0x07, Invalid Offset).
    static func part(of value: [UInt8], from offset: Int) throws(DBusError) -> [UInt8] {
        guard (0...value.count).contains(offset) else {
            throw DBusError(name: "org.bluez.Error.InvalidOffset",
                            message: "offset \(offset) is past the value's end (\(value.count) bytes)")
        }
        return Array(value[offset...])
    }

    /// The part of a read by `central` at `offset`: from 0, a fresh value (`fresh`), remembered for the Read Blobs that
    /// follow; past 0, the remembered one's rest.
    /// - Throws: `org.bluez.Error.InvalidOffset` when `offset` is past the value's end.
    mutating func read(by central: String, at offset: Int, fresh: () -> [UInt8]) throws(DBusError) -> [UInt8] {
        if offset > 0, let value = values[central] {
            return try Self.part(of: value, from: offset)
        }
        let value = fresh()
        if values[central] == nil, values.count >= Self.remembered { values.removeAll() }
        values[central] = value
        return try Self.part(of: value, from: offset)
    }
}
