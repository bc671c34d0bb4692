/// The 6-byte HID-style mouse report of seeds/connectivity-layer.md:
///
/// | byte | field |
/// |---|---|
/// | 0 | buttons (bit 0 left, 1 right, 2 middle; 3–7 reserved) |
/// | 1–2 | dx, int16 little-endian, positive = right |
/// | 3–4 | dy, int16 little-endian, positive = down |
/// | 5 | wheel, int8 -127…127, positive = scroll up |
public struct HIDReport: Sendable, Hashable {
    public static let length = 6

    public var buttons: MouseButtons
    public var dx: Int16
    public var dy: Int16
    public var wheel: Int8

    /// Values outside the fields' ranges are clamped (dx, dy to int16, wheel to -127…127).
    public init(buttons: MouseButtons = [], dx: Int, dy: Int, wheel: Int = 0) {
        self.buttons = buttons
        self.dx = clampToInt16(dx)
        self.dy = clampToInt16(dy)
        self.wheel = clampToInt8(wheel)
    }

    public func encoded() -> [UInt8] {
        let x = UInt16(bitPattern: dx)
        let y = UInt16(bitPattern: dy)
        return [
            buttons.rawValue,
            UInt8(truncatingIfNeeded: x), UInt8(truncatingIfNeeded: x >> 8),
            UInt8(truncatingIfNeeded: y), UInt8(truncatingIfNeeded: y >> 8),
            UInt8(bitPattern: wheel),
        ]
    }

    /// - Throws: `ProtocolError` for a length other than 6, reserved button bits, or a wheel of -128.
    public static func decode(_ bytes: some Collection<UInt8>) throws(ProtocolError) -> HIDReport {
        let b = Array(bytes)
        guard b.count == length else {
            throw ProtocolError(.malformedBinary, payload: "HID report", "expected \(length) bytes, found \(b.count)")
        }
        guard b[0] & MouseButtons.reservedMask == 0 else {
            throw ProtocolError(
                .malformedBinary, payload: "HID report",
                "byte 0 (buttons) 0x\(String(b[0], radix: 16)) has reserved bits 3-7 set")
        }
        let wheel = Int8(bitPattern: b[5])
        guard wheel != Int8.min else {
            throw ProtocolError(.malformedBinary, payload: "HID report", "byte 5 (wheel) is -128, outside -127...127")
        }
        return HIDReport(
            buttons: MouseButtons(rawValue: b[0]),
            dx: Int(Int16(bitPattern: UInt16(b[1]) | UInt16(b[2]) << 8)),
            dy: Int(Int16(bitPattern: UInt16(b[3]) | UInt16(b[4]) << 8)),
            wheel: Int(wheel))
    }
}
