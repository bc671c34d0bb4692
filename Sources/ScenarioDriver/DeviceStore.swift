import Foundation
import StrictJSON

/// The computers the phone remembers (R6): at most 5, persisted; adding a sixth evicts the one connected to
/// least recently.
package struct DeviceStore: Sendable, Equatable {
    package struct Device: Sendable, Hashable {
        package var address: String
        package var name: String
        /// Seconds since 1970 of the last connection.
        package var lastConnected: Double

        package init(address: String, name: String, lastConnected: Double) {
            self.address = address
            self.name = name
            self.lastConnected = lastConnected
        }
    }

    package static let capacity = 5
    package private(set) var devices: [Device] = []

    package init(devices: [Device] = []) {
        self.devices = devices
    }

    /// Remembers a connection: updates a known device, or adds it, evicting the least recently connected when
    /// the store is full. Returns the evicted device, if any.
    @discardableResult
    package mutating func remember(address: String, name: String, at time: Double) -> Device? {
        if let index = devices.firstIndex(where: { $0.address == address }) {
            devices[index].lastConnected = time
            devices[index].name = name
            return nil
        }
        var evicted: Device?
        if devices.count >= Self.capacity, let oldest = devices.indices.min(by: { devices[$0].lastConnected < devices[$1].lastConnected }) {
            evicted = devices.remove(at: oldest)
        }
        devices.append(Device(address: address, name: name, lastConnected: time))
        return evicted
    }

    package mutating func forget(address: String) {
        devices.removeAll { $0.address == address }
    }

    // MARK: Persistence

    package func json() -> String {
        JSONWriter(pretty: true).string(.array(devices.map { device in
            .object(JSONObject([
                ("address", .string(device.address)), ("name", .string(device.name)), ("lastConnected", .number(device.lastConnected)),
            ]))
        })) + "\n"
    }

    /// - Throws: `JSONSchemaError` / `JSONParseError` describing what is wrong with the text.
    package static func parse(_ text: String) throws -> DeviceStore {
        let list = try JSONParser().parse(text).array(at: .root)
        var store = DeviceStore()
        for (index, element) in list.enumerated() {
            let path = JSONPath.root.appending(index)
            let object = try element.object(at: path)
            store.devices.append(Device(
                address: try object.required("address", at: path).string(at: path.appending("address")),
                name: try object.required("name", at: path).string(at: path.appending("name")),
                lastConnected: try object.required("lastConnected", at: path).number(at: path.appending("lastConnected"))))
        }
        guard store.devices.count <= capacity else {
            throw JSONSchemaError(.root, "\(store.devices.count) devices stored; at most \(capacity)")
        }
        return store
    }
}
