import Foundation

/// BlueZ's D-Bus names (doc/org.bluez.*.rst of BlueZ 5.66).
public enum BlueZ {
    public static let service = "org.bluez"
    public static let adapter = "org.bluez.Adapter1"
    public static let device = "org.bluez.Device1"
    public static let gattManager = "org.bluez.GattManager1"
    public static let gattService = "org.bluez.GattService1"
    public static let gattCharacteristic = "org.bluez.GattCharacteristic1"
    public static let advertisingManager = "org.bluez.LEAdvertisingManager1"
    public static let advertisement = "org.bluez.LEAdvertisement1"
    public static let agentManager = "org.bluez.AgentManager1"
    public static let agent = "org.bluez.Agent1"

    /// `/org/bluez/hci0`
    public static func adapterPath(_ adapter: String) -> String { "/org/bluez/\(adapter)" }

    /// The Bluetooth address in a device object path: `/org/bluez/hci0/dev_00_AA_01_01_00_01` → `00:AA:01:01:00:01`.
    public static func address(ofDevicePath path: String) -> String? {
        guard let last = path.split(separator: "/").last, last.hasPrefix("dev_") else { return nil }
        let address = last.dropFirst(4).replacingOccurrences(of: "_", with: ":")
        return address.count == 17 ? address : nil
    }
}
