package import PhoneLinks
import RemoteTouchProtocol
package import ComputerProcess
import RunContext
import ScenarioDriver

/// One computer under test with the phone paired to it over BLE, for streams that are not scenarios (`hil bench`,
/// `hil soak`, `hil calibrate`): the phone's link (`BLEPhoneLink`, scanning first) and the computer with its evdev
/// frames (`PeripheralComputer`), connected, paired and in basic mouse mode as a scenario starts. `close` is the
/// link's own teardown, which stops the computer (it writes its receipts then).
package struct PairedSession: Sendable {
    package let phone: BLEPhoneLink
    package let computer: PeripheralComputer

    /// - Parameter networks: also serve these network transports (`hil bench`'s `tcp` and `udp` paths), in the rig's
    ///   computer host.
    static func open(_ context: RunContext, folder: String, networks: [String] = []) async throws -> PairedSession {
        // From a phone that knows no computer, scanning before the computer advertises (BLEPhoneLink.init says why).
        let phone = try await BLEPhoneLink(centralAdapter: context.centralAdapter, settings: .init(
            peripheralAdapter: context.peripheralAdapter, writePath: .dbus, latencyScale: context.latencyScale,
            emulatedControllers: context.emulatedControllers, onlyThisComputer: context.onlyThisComputer))
        var launch = PeripheralUnderTest.Launch(
            hil: context.hil, adapter: context.peripheralAdapter, uinputName: context.uinputName, folder: folder)
        if !networks.isEmpty {
            let hosts = try context.networkHosts(for: "the \(networks.joined(separator: " and ")) path")
            launch = launch.serving(networks, on: hosts, alsoBLE: true)
        }
        let session = PairedSession(phone: phone, computer: try await PeripheralComputer(launch))
        do {
            try await pair(phone, with: session.computer, what: "the BLE phone")
        } catch {
            await session.close(erred: true)
            throw error
        }
        return session
    }

    /// Connects `phone`, pairs it with the code `computer` shows and sends basic mouse mode confirmed, as a scenario
    /// starts (`ScenarioDriver.run`).
    /// - Throws: `BenchError` `.pairing` when the computer refused the code, or the link's error.
    static func pair(_ phone: any PhoneLink, with computer: PeripheralComputer, what: String) async throws {
        _ = try await phone.connect()
        let before = computer.pairingCode()
        try await phone.requestPairing()
        let code = try await computer.current.awaitPairingCode(otherThan: before, timeout: .seconds(5))
        let paired = try await phone.enterCode(code)
        guard paired.refusal == nil, paired.status.state == .paired else {
            throw BenchError(.pairing, "\(what) did not pair with the code the computer shows (\(code)): "
                             + (paired.refusal ?? "it reports \(paired.status.state.rawValue)"),
                             hint: "the computer's log is in its folder (\(computer.launch.folder))")
        }
        _ = try await phone.send(.modeChange(mode: .basicMouse), confirmed: true)
    }

    /// The computer's adapter off (the link drops), the computer stopped while the phone forgets it, the adapter on
    /// again (`BLEPhoneLink.tearDown`); `erred`: after an error the phone's adapter is reset too. Returns what went
    /// wrong, as lines for the console.
    @discardableResult
    package func close(erred: Bool = false) async -> [String] {
        let teardown = await phone.tearDown(erred: erred, phase: { _ in }, stopComputer: { [computer] in _ = await computer.stop() })
        return teardown.problems + teardown.notes + (teardown.rigBroken.map { ["the rig is broken: \($0)"] } ?? [])
    }
}
