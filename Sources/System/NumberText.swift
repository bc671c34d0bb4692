/// The one way numbers are written in messages: `plain` for a value as given (`15`, `7.5`, `0.2`: a whole number
/// without a fraction, else its shortest decimal), `oneDecimal` for a measurement (`12.5`, the same in every message
/// of a run). Files have their own writers (JSON's `JSONWriter.numberText`, the report's).
package enum NumberText {
    /// `15`, `7.5`, `0.25`.
    package static func plain(_ value: Double) -> String {
        guard value.isFinite else { return String(value) }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }

    /// `12.5`, `3.0`.
    package static func oneDecimal(_ value: Double) -> String {
        let tenths = (value * 10).rounded()
        let text = String(Int64(tenths / 10)) + "." + String(Int64(abs(tenths).truncatingRemainder(dividingBy: 10)))
        return tenths < 0 && tenths > -10 ? "-" + text : text
    }
}
