/// The buttons bitmap shared by the HID report and the UDP packet (seeds/connectivity-layer.md).
public struct MouseButtons: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8

    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    public static let left = MouseButtons(rawValue: 0x01)
    public static let right = MouseButtons(rawValue: 0x02)
    public static let middle = MouseButtons(rawValue: 0x04)

    /// Bits 3–7 are reserved and must be zero.
    public static let reservedMask: UInt8 = 0xF8
}

/// Clamps to the symmetric int8 range the seed uses (-127…127; -128 is never produced).
@inlinable
public func clampToInt8(_ value: Int) -> Int8 {
    Int8(max(-127, min(127, value)))
}

/// Clamps to the int16 range of the HID report.
@inlinable
public func clampToInt16(_ value: Int) -> Int16 {
    Int16(max(Int(Int16.min), min(Int(Int16.max), value)))
}
