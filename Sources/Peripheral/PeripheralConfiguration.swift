public import DBus

/// How `hil peripheral` runs.
public struct PeripheralConfiguration: Sendable {
    /// The adapter to register on.
    public var adapter = "hci0"
    /// The advertised local name.
    public var name = "RemoteTouch"
    /// Where pairings, the lockout and the log live.
    public var stateDirectory: String
    /// Where each new pairing code is also written (for a rig, or a kiosk display); nil for none.
    public var pairingCodeFile: String?
    /// The uinput device's name, which verifiers find it by.
    public var uinputName = "RemoteTouch HIL Virtual Input"
    public var uinputPath = "/dev/uinput"
    public var bus: DBusConnection.Bus = .system
    /// Battery level to report when this machine has no battery in /sys/class/power_supply.
    public var fallbackBatteryLevel = 100
    public var pairing = PairingAuthority.Settings()
    /// Where each command's receipt and uinput write times go (`ReceiptLog`), for latency breakdowns; nil for none.
    public var receiptsFile: String?
    /// A well-known bus name to own, or nil for none.
    public var busName: String?
    /// Where to write the ready record (`ReadyRecord`) each time the computer serves; nil for none.
    public var readyFile: String?
    /// Wait for this signal before creating the uinput device and registering; the bus connection is made first
    /// (`hil peripheral --start-when`).
    public var startSignal: StartSignal?
    /// R5: status every 2 s while a central is subscribed.
    public var statusInterval: Duration = .seconds(2)
    /// The transports served at once (`--transports ble,tcp`); they share pairing, lockout and the command path.
    public var transports: [Transport] = [.ble]
    /// The TCP endpoint's port, namespace and Bonjour publishing.
    public var tcp = TCPSettings()
    /// The udp transport's control port, movement port and namespace.
    public var udp = TCPSettings.udp()

    /// A transport the computer can serve. `ble` is the GATT service, which also carries the hid transport's
    /// report characteristic.
    public enum Transport: String, Sendable, CaseIterable {
        case ble
        case tcp
        case udp
    }

    public init(stateDirectory: String) {
        self.stateDirectory = stateDirectory
    }

    /// Object paths of the GATT application.
    public static let applicationPath = "/org/remotetouch/hil"
    public static let servicePath = applicationPath + "/service0"
    public static let commandPath = servicePath + "/command"
    public static let statusPath = servicePath + "/status"
    public static let reportPath = servicePath + "/report"
    public static let pairingPath = servicePath + "/pairing"
    public static let advertisementPath = applicationPath + "/advertisement0"
    public static let agentPath = applicationPath + "/agent"
}
