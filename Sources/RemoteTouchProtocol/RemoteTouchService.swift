/// The RemoteTouch GATT service of seeds/remotetouch-design.md ("BLE Protocol Specification").
public enum RemoteTouchService {
    /// Primary service, advertised by the computer (peripheral).
    public static let serviceUUID = "12345678-1234-1234-1234-123456789abc"
    /// Write and write-without-response: a JSON `Command`, phone → computer.
    public static let commandUUID = "12345678-1234-1234-1234-123456789abd"
    /// Notify: a JSON `StatusData` every 2 s while a central is subscribed, computer → phone.
    public static let statusUUID = "12345678-1234-1234-1234-123456789abe"
    /// Read (a JSON `PairingStatus`) and write (a 6-digit `PairingCode`).
    public static let pairingUUID = "12345678-1234-1234-1234-123456789abf"
    /// Write without response: one 6-byte `HIDReport` per write, phone → computer (the `hid` transport; this
    /// project's extension for seeds/connectivity-layer.md's HID-formatted reports over BLE).
    public static let reportUUID = "12345678-1234-1234-1234-123456789ac0"

    /// The longest attribute value ATT allows (Core spec Vol 3 Part F 3.2.9); longer writes are refused.
    public static let maxAttributeLength = 512
    /// Status notification period while connected (R5).
    public static let statusInterval: Duration = .seconds(2)
}
