import BlueZAPI
import DBus
import Foundation
import RemoteTouchProtocol

extension GattEndpoint {
    func exportObjects() async throws(PeripheralError) {
        let path = PeripheralConfiguration.self
        do {
            try await connection.addObjectManager(at: path.applicationPath)
            try await connection.export(path.servicePath, [
                DBusInterface(BlueZ.gattService, properties: [
                    Self.uuid(RemoteTouchService.serviceUUID), DBusProperty("Primary", "b", get: { .bool(true) }),
                ])
            ])
            try await connection.export(path.commandPath, [commandInterface()])
            try await connection.export(path.reportPath, [reportInterface()])
            try await connection.export(path.statusPath, [statusInterface()])
            try await connection.export(path.pairingPath, [pairingInterface()])
            try await connection.export(path.advertisementPath, [advertisementInterface()])
            try await connection.export(path.agentPath, [agentInterface()])
        } catch {
            throw PeripheralError(.bluez, "cannot export the GATT application: \(error)", cause: error)
        }
    }

    private static func uuid(_ text: String) -> DBusProperty { DBusProperty("UUID", "s", get: { .string(text) }) }

    private static let inService = DBusProperty("Service", "o", get: { .objectPath(PeripheralConfiguration.servicePath) })

    /// Command `…9ABD`: write, write without response, `AcquireWrite`.
    private func commandInterface() -> DBusInterface {
        DBusInterface(BlueZ.gattCharacteristic, methods: [
            DBusMethod("WriteValue", in: "aya{sv}", .immediate { [self] call throws(DBusError) in
                try commandWritten(call.body[0].bytesValue ?? [], options: call.body[1])
                return []
            }),
            DBusMethod("AcquireWrite", in: "a{sv}", out: "hq", .immediate { [self] call throws(DBusError) in
                try acquireWrite(options: call.body[0])
            }),
        ], properties: [
            Self.uuid(RemoteTouchService.commandUUID), Self.inService,
            DBusProperty("Flags", "as", get: { .strings(["write", "write-without-response"]) }),
            DBusProperty("WriteAcquired", "b", get: { [self] in .bool(status.withLock { !$0.writers.isEmpty }) }),
        ])
    }

    /// Report `…9AC0` (the hid transport): write without response, one 6-byte report per write; `AcquireWrite`;
    /// write with response too (the phone sends button changes so, in order); read: a report of the buttons the
    /// computer holds, with no motion.
    ///
    /// bluetoothd 5.66 acquires a characteristic that offers `AcquireWrite` on the first write command, and while
    /// that call is pending starts another for each further write; the reports it forwarded then were not the ones
    /// written (one lost, its neighbour twice). Without `AcquireWrite` every report is a D-Bus call and a swipe's
    /// reports queue behind each other. So the phone primes it: a neutral report, then a read, which bluetoothd
    /// answers only after the acquisition (see `BLEPhoneLink.openFastPath`).
    private func reportInterface() -> DBusInterface {
        DBusInterface(BlueZ.gattCharacteristic, methods: [
            DBusMethod("WriteValue", in: "aya{sv}", .immediate { [self] call throws(DBusError) in
                try reportWritten(call.body[0].bytesValue ?? [], options: call.body[1])
                return []
            }),
            DBusMethod("ReadValue", in: "a{sv}", out: "ay", .immediate { [self] call throws(DBusError) in
                [.bytes(try LongRead.part(of: Self.reportValue(host.processor), from: LongRead.offset(call.body[0])))]
            }),
            DBusMethod("AcquireWrite", in: "a{sv}", out: "hq", .immediate { [self] call throws(DBusError) in
                try acquireWrite(options: call.body[0], reports: true)
            }),
        ], properties: [
            Self.uuid(RemoteTouchService.reportUUID), Self.inService,
            DBusProperty("Flags", "as", get: { .strings(["read", "write", "write-without-response"]) }),
            DBusProperty("WriteAcquired", "b", get: { [self] in .bool(status.withLock { !$0.writers.isEmpty }) }),
        ])
    }

    /// Status `…9ABE`: notify, `AcquireNotify`; the latest status stays readable as Value.
    private func statusInterface() -> DBusInterface {
        DBusInterface(BlueZ.gattCharacteristic, methods: [
            DBusMethod("StartNotify", .immediate { [self] _ in
                status.withLock { $0.notifying = true }
                log.info("status notifications started")
                return []
            }),
            DBusMethod("StopNotify", .immediate { [self] _ in
                status.withLock { $0.notifying = false }
                log.info("status notifications stopped")
                return []
            }),
            DBusMethod("AcquireNotify", in: "a{sv}", out: "hq", .immediate { [self] call throws(DBusError) in
                try acquireNotify(options: call.body[0])
            }),
        ], properties: [
            Self.uuid(RemoteTouchService.statusUUID), Self.inService,
            DBusProperty("Flags", "as", get: { .strings(["notify"]) }),
            DBusProperty("Notifying", "b", get: { [self] in .bool(status.withLock { $0.notifying }) }),
            DBusProperty("NotifyAcquired", "b", get: { [self] in .bool(status.withLock { $0.channel != nil }) }),
            DBusProperty("Value", "ay", get: { [self] in .bytes(status.withLock { $0.value }) }),
        ])
    }

    /// Pairing `…9ABF`: read (asks for a code), write (enters one). A read longer than the ATT MTU allows goes on in
    /// Read Blobs, which continue the value the central's read from offset 0 returned (`LongRead`).
    private func pairingInterface() -> DBusInterface {
        DBusInterface(BlueZ.gattCharacteristic, methods: [
            DBusMethod("ReadValue", in: "a{sv}", out: "ay", .immediate { [self] call throws(DBusError) in
                let central = try Self.central(call.body[0])
                let offset = LongRead.offset(call.body[0])
                let part = try pairingReads.withLock { reads throws(DBusError) in
                    try reads.read(by: central, at: offset) { host.pairingRead(by: central) }
                }
                return [.bytes(part)]
            }),
            DBusMethod("WriteValue", in: "aya{sv}", .immediate { [self] call throws(DBusError) in
                try pairingWritten(call.body[0].bytesValue ?? [], options: call.body[1])
                return []
            }),
        ], properties: [
            Self.uuid(RemoteTouchService.pairingUUID), Self.inService, DBusProperty("Flags", "as", get: { .strings(["read", "write"]) }),
        ])
    }

    /// The LE advertisement of the RemoteTouch service.
    private func advertisementInterface() -> DBusInterface {
        DBusInterface(BlueZ.advertisement, methods: [
            DBusMethod("Release", .immediate { [self] _ in
                log.info("bluetoothd released the advertisement")
                return []
            })
        ], properties: [
            DBusProperty("Type", "s", get: { .string("peripheral") }),
            DBusProperty("ServiceUUIDs", "as", get: { .strings([RemoteTouchService.serviceUUID]) }),
            DBusProperty("LocalName", "s", get: { [configuration] in .string(configuration.name) }),
            DBusProperty("Discoverable", "b", get: { .bool(true) }),
        ])
    }

    /// Just Works pairing: bluetoothd cancels it unless an agent answers, so this one accepts.
    func agentInterface() -> DBusInterface {
        let accept = { [log] (what: String) -> DBusMethodHandler in
            .immediate { call in
                log.info("agent: \(what) \(call.body.first?.stringValue ?? "") accepted")
                return []
            }
        }
        return DBusInterface(BlueZ.agent, methods: [
            DBusMethod("Release", accept("release")),
            DBusMethod("Cancel", accept("cancel")),
            DBusMethod("RequestAuthorization", in: "o", accept("authorization for")),
            DBusMethod("RequestConfirmation", in: "ou", accept("confirmation for")),
            DBusMethod("AuthorizeService", in: "os", accept("service for")),
            DBusMethod("DisplayPasskey", in: "ouq", accept("passkey display for")),
            DBusMethod("DisplayPinCode", in: "os", accept("PIN display for")),
            DBusMethod("RequestPasskey", in: "o", out: "u", .immediate { _ in [.uint32(0)] }),
            DBusMethod("RequestPinCode", in: "o", out: "s", .immediate { _ in [.string("0000")] }),
        ])
    }
}
