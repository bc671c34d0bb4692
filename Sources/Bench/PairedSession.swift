package import PhoneLinks
import DBus
import Evdev
import InputCodes
import RemoteTouchProtocol
import RigControl
package import ComputerProcess
import RunContext
import Waiting

/// One computer side under test with the phone paired to it, for streams that are not scenarios (`hil bench`,
/// `hil soak`): the phone scans first, the peripheral starts, the evdev reader opens its device, the phone
/// connects, pairs with the code shown, and sends its mode confirmed (as ScenarioRunner does on connect).
/// The caller stops `peripheral` and `collector` and forgets `link` when done.
package struct PairedSession {
    package let bluez: BlueZCentral
    package let peripheral: PeripheralUnderTest
    package let collector: FrameCollector
    package let link: BlueZCentral.Peripheral

    /// - Parameter networks: also serve these network transports (`hil bench`'s `tcp` and `udp` paths), in the rig's
    ///   computer host.
    static func open(_ context: RunContext, folder: String, networks: [String] = []) async throws -> PairedSession {
        let bluez = BlueZCentral(connection: try await DBusConnection.connect(.system), adapter: context.centralAdapter)
        // From a phone that knows no computer, as each scenario starts (BLEPhoneLink.init says why).
        try await bluez.forgetAllDevices()
        try await bluez.startDiscovery()
        var launch = PeripheralUnderTest.Launch(
            hil: context.hil, adapter: context.peripheralAdapter, uinputName: context.uinputName, folder: folder)
        if !networks.isEmpty {
            launch = launch.serving(networks, on: try context.networkHosts(for: "the \(networks.joined(separator: " and ")) path"), alsoBLE: true)
        }
        let peripheral = try await PeripheralUnderTest.start(launch)
        do {
            let node = try EvdevReader.waitForDevice(named: context.uinputName, timeout: .seconds(10))
            let collector = FrameCollector(reader: try EvdevReader(devnode: node, grab: true))
            do {
                let link = try await bluez.connectToRemoteTouch(scanning: true)
                _ = try await bluez.read(link.pairing)
                let code = try await peripheral.awaitPairingCode(timeout: .seconds(5))
                try await bluez.write(link.pairing, Array(code.utf8), withResponse: true)
                try await bluez.write(link.command, Command.modeChange(mode: .basicMouse).encoded(), withResponse: true)
                return PairedSession(bluez: bluez, peripheral: peripheral, collector: collector, link: link)
            } catch {
                collector.stop()
                throw error
            }
        } catch {
            await peripheral.stop()
            throw error
        }
    }
}
