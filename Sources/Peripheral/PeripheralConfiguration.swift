package import DBus

/// How `hil peripheral` runs.
package struct PeripheralConfiguration: Sendable {
    /// The adapter to register on.
    package var adapter = "hci0"
    /// The advertised local name.
    package var name = "RemoteTouch"
    /// Where pairings, the lockout and the log live.
    package var stateDirectory: String
    /// Where each new pairing code is also written (for a rig, or a kiosk display); nil for none.
    package var pairingCodeFile: String?
    /// The uinput device's name, which verifiers find it by.
    package var uinputName = "RemoteTouch HIL Virtual Input"
    package var uinputPath = "/dev/uinput"
    package var bus: DBusConnection.Bus = .system
    /// Battery level to report when this machine has no battery in /sys/class/power_supply.
    package var fallbackBatteryLevel = 100
    package var pairing = PairingAuthority.Settings()
    /// Where each command's receipt and uinput write times go (`ReceiptLog`), for latency breakdowns; nil for none.
    package var receiptsFile: String?
    /// A well-known bus name to own, or nil for none.
    package var busName: String?
    /// Where to write the ready record (`ReadyRecord`) each time the computer serves; nil for none.
    package var readyFile: String?
    /// Wait for this signal before creating the uinput device and registering; the bus connection is made first
    /// (`hil peripheral --start-when`).
    package var startSignal: StartSignal?
    /// R5: status every 2 s while a central is subscribed.
    package var statusInterval: Duration = .seconds(2)
    /// The endpoints served at once (`--transport ble,tcp`); they share pairing, lockout and the command path.
    package var endpoints: [Endpoint] = [.ble]
    /// The TCP endpoint's port, namespace and Bonjour publishing.
    package var tcp = TCPSettings()
    /// The udp transport's control port, movement port and namespace.
    package var udp = TCPSettings.udp()

    /// An endpoint the computer serves: `ble` is the GATT service (the ble and hid transports: its command and
    /// report characteristics), `tcp` the TCP endpoint, `udp` the udp transport's control and movement ports.
    package enum Endpoint: String, Sendable, CaseIterable {
        case ble
        case tcp
        case udp
    }

    package init(stateDirectory: String) {
        self.stateDirectory = stateDirectory
    }

    /// Object paths of the GATT application.
    package static let applicationPath = "/org/remotetouch/hil"
    package static let servicePath = applicationPath + "/service0"
    package static let commandPath = servicePath + "/command"
    package static let statusPath = servicePath + "/status"
    package static let reportPath = servicePath + "/report"
    package static let pairingPath = servicePath + "/pairing"
    package static let advertisementPath = applicationPath + "/advertisement0"
    package static let agentPath = applicationPath + "/agent"
}
