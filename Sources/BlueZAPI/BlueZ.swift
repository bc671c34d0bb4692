import Foundation

/// BlueZ's D-Bus names (doc/org.bluez.*.rst of BlueZ 5.66).
package enum BlueZ {
    package static let service = "org.bluez"
    package static let adapter = "org.bluez.Adapter1"
    package static let device = "org.bluez.Device1"
    package static let gattManager = "org.bluez.GattManager1"
    package static let gattService = "org.bluez.GattService1"
    package static let gattCharacteristic = "org.bluez.GattCharacteristic1"
    package static let advertisingManager = "org.bluez.LEAdvertisingManager1"
    package static let advertisement = "org.bluez.LEAdvertisement1"
    package static let agentManager = "org.bluez.AgentManager1"
    package static let agent = "org.bluez.Agent1"

    /// `/org/bluez/hci0`
    package static func adapterPath(_ adapter: String) -> String { "/org/bluez/\(adapter)" }

    /// The Bluetooth address in a device object path: `/org/bluez/hci0/dev_00_AA_01_01_00_01` → `00:AA:01:01:00:01`.
    package static func address(ofDevicePath path: String) -> String? {
        guard let last = path.split(separator: "/").last, last.hasPrefix("dev_") else { return nil }
        let address = last.dropFirst(4).replacingOccurrences(of: "_", with: ":")
        return address.count == 17 ? address : nil
    }
}
