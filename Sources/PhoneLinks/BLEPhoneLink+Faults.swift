import Foundation
package import GestureScript
package import InputCodes
package import ScenarioDriver
import RigControl
import Waiting
import DBus
import BlueZAPI
package import Verifier

extension BLEPhoneLink {
    /// Powers the computer's adapter (or, with `.phone`, the phone's) off for `outage`: the phone sees an
    /// unexpected disconnect.
    package func takeDown(_ side: LinkSide, for outage: Duration) async throws -> any LinkOutage {
        let remote = try connected()
        let adapter = side == .computer ? settings.peripheralAdapter : central.adapter
        let down = try await Self.adapterOutage(adapter, ofComputer: side == .computer, central, emulated: settings.emulatedControllers,
                                                latencyScale: settings.latencyScale, for: outage)
        try await waitUntilDisconnected(remote, what: "the link drop")
        radio.linkEnded()
        return down
    }

    /// Powers `adapter` off (an emulated controller's advertising silenced first) and returns the outage that powers
    /// it on again after `outage`: the computer's once it advertises again, settled (`powerOnAdvertising`).
    package static func adapterOutage(_ adapter: String, ofComputer: Bool, _ central: BlueZCentral, emulated: Bool,
                                      latencyScale: Double, for outage: Duration) async throws -> RestoringOutage
    {
        var silenceNote = ""
        if emulated {
            silenceNote = try await powerOffSilenced(adapter, central)
        } else {
            try await central.setPowered(adapter, false)
        }
        let whose = ofComputer ? "the computer's" : "the phone's"
        let advertises = ofComputer && emulated ? Duration.seconds(3) * latencyScale : nil
        return RestoringOutage(description: "\(whose) adapter \(adapter) off", after: outage) { [silenceNote] in
            do {
                if let advertises {
                    let (back, note) = try await Self.powerOnAdvertising(adapter, central, within: advertises)
                    return (back, note + silenceNote)
                }
                let (back, note, _) = try await Self.powerOnSettled(adapter, central)
                return (back, note + silenceNote)
            } catch {
                return (.now(), "; rig: \(adapter) did not power on again: \(error)" + silenceNote)
            }
        }
    }

    /// Powers an emulated controller's adapter off with its advertising silenced first, and checks on the HCI
    /// monitor channel that the kernel did not turn it on again before the power-off (see `AdvertisingWatch`);
    /// if it did, powers the adapter on (the HCI Reset stops the controller) and off again, up to 3 times. Returns
    /// the rig's note for the step, "" when the first power-off was clean.
    private static func powerOffSilenced(_ adapter: String, _ central: BlueZCentral) async throws -> String {
        var notes: [String] = []
        var cycles = 0
        while true {
            let watch: AdvertisingWatch?
            do { watch = try AdvertisingWatch(adapter: adapter) } catch {
                watch = nil
                notes.append("cannot watch \(adapter)'s advertising: \(error)")
            }
            if let problem = try await EmulatedRadio.silenceAdvertising(adapter) {
                notes.append("could not silence \(adapter)'s emulated advertiser first (\(problem)): a phone may connect to a ghost")
            }
            try await central.setPowered(adapter, false)
            guard try await watch?.leftAdvertising() == true else {
                if cycles > 0 {
                    notes.append("the kernel turned \(adapter)'s advertising on again before it went off, so the rig powered it on and off again (\(cycles) time(s))")
                }
                break
            }
            guard cycles < 3 else {
                notes.append("\(adapter)'s emulated controller was still advertising when it went off, \(cycles) power cycles later: a phone may connect to a ghost")
                break
            }
            cycles += 1
            // Settled before the next power-off, as after an outage: a power-off in the middle of the kernel's
            // follow-up to the power-on is what made bluetoothd 5.66 crash (AdapterSettleWatch).
            let note = try await Self.powerOnSettled(adapter, central).note
            if !note.isEmpty { notes.append(String(note.dropFirst("; rig: ".count))) }
        }
        return notes.map { "; rig: \($0)" }.joined()
    }

    /// Powers an adapter on after a link fault and holds until the kernel is done with it (`AdapterSettleWatch`,
    /// opened before the power-on so that it sees every command sent with it). Returns when the adapter came on (the
    /// radio is back then) and the rig's note ("" when the first try powered it on and it settled).
    /// With `advertisingWithin`, also whether the controller advertises within that time after it settled (nil
    /// when the monitor channel could not be opened).
    package static func powerOnSettled(_ adapter: String, _ central: BlueZCentral, advertisingWithin: Duration? = nil) async throws
        -> (back: MonotonicTime, note: String, advertises: Bool?)
    {
        let watch: AdapterSettleWatch?
        var watchNote = ""
        do { watch = try AdapterSettleWatch(adapter: adapter) } catch {
            watch = nil
            watchNote = "; rig: cannot watch \(adapter)'s commands after power-on: \(error)"
        }
        let tries = try await powerOn(adapter, central)
        let back = MonotonicTime.now()
        let note = tries > 1 ? "; rig: \(adapter) powered on at try \(tries) (the emulated controller timed out a command; dmesg has it)" : ""
        let settled = try await watch?.settle().note(adapter) ?? ""
        var advertises: Bool?
        if let within = advertisingWithin, let watch { advertises = try await watch.advertises(within: within) }
        return (back, note + settled + watchNote, advertises)
    }

    /// Powers the computer's emulated controller on after a link drop and holds until it advertises again, as the
    /// kernel makes it for the computer's registered advertisement. btvirt now and then loses that re-enable after
    /// the power cycle, and the phone's scan then never sees the computer (one flaky scenario in a ble 10-repeat):
    /// seen on the HCI monitor channel (no advertising enable accepted within `within` of the settle), the rig
    /// powers the adapter off and on again, up to twice, and says so in a rig: note.
    static func powerOnAdvertising(_ adapter: String, _ central: BlueZCentral, within: Duration) async throws
        -> (back: MonotonicTime, note: String)
    {
        var notes = ""
        var cycles = 0
        while true {
            let (back, note, advertises) = try await powerOnSettled(adapter, central, advertisingWithin: within)
            notes += note
            if advertises != false {
                if cycles > 0 {
                    notes += "; rig: \(adapter)'s emulated controller did not advertise again after power-on, so the rig powered it off and on again (\(cycles) time(s))"
                }
                return (back, notes)
            }
            guard cycles < 2 else {
                return (back, notes + "; rig: \(adapter)'s emulated controller did not advertise again within \(within) of any of \(cycles + 1) power-ons: the phone cannot find the computer")
            }
            cycles += 1
            try await central.setPowered(adapter, false)
        }
    }

    /// bluetoothd stops and starts again. The computer must notice, let go of what it holds, register its
    /// application and advertisement again and serve; the phone (whose Bluetooth stack restarted too: one
    /// bluetoothd serves both adapters in a rig) scans as soon as its adapter is back and connects.
    package func restartStack(_ computer: any ComputerUnderTest, release: ReleaseCheck) async throws -> LinkObservation {
        let start = ContinuousClock.now
        let heldBefore = computer.heldKeys()
        let daemon = try BluetoothDaemon.running()
        let logBefore = computer.log.utf8.count
        try await daemon.restart()
        let startedAt = ContinuousClock.now
        let stoppedMs = (startedAt - start).milliseconds
        let released = await release.afterDrop(heldBefore: heldBefore, downAt: .now())
        let (scanning, servingAt) = try await waitUntilServing(from: startedAt)
        let servingMs = servingAt.map { ($0 - startedAt).milliseconds }
        var failure = ""
        var connected = false
        if servingAt != nil {
            do {
                let found = try await central.connectToRemoteTouch(timeout: .seconds(Int64(15 * settings.latencyScale)), scanning: scanning)
                replace(found)
                connected = true
            } catch {
                failure = "; the phone could not connect again: \(error)"
            }
        } else {
            failure = "; the computer's advertisement was not active within \(Judge.format((15 * settings.latencyScale) * 1000)) ms of bluetoothd's start"
        }
        let elapsedMs = (ContinuousClock.now - start).milliseconds
        // The computer's own account: "registered again 412.3 ms after bluetoothd came back".
        let ownLines = String(decoding: computer.log.utf8.dropFirst(logBefore), as: UTF8.self)
        let registered = ownLines.split(separator: "\n").first { $0.contains("registered again") }
            .map { " (its log: \($0.split(separator: " ").drop { !$0.hasPrefix("registered") }.joined(separator: " ")))" } ?? ""
        let serving = servingMs.map { "advertising again \(Judge.format($0)) ms after bluetoothd started\(registered)" } ?? "not advertising"
        let summary = "bluetoothd (pid \(daemon.pid)\(daemon.underSystemd ? ", bluetooth.service" : "")) stopped and started again in "
            + "\(Judge.format(stoppedMs)) ms; the computer was \(serving); the phone shows \(connected ? "connected" : "disconnected") after "
            + "\(Judge.format(elapsedMs)) ms\(failure)\n\(released.note)"
        return LinkObservation(connected: connected, attempts: connected ? 1 : 0, elapsedMs: elapsedMs, summary: summary,
                               stillHeld: released.stillHeld, servingMs: servingMs)
    }

    /// Scans as soon as the phone's adapter is powered (before the computer advertises, see startDiscovery), and
    /// watches the computer's adapter until its advertisement is active: looked at again whenever the restarted
    /// bluetoothd announces an adapter (`InterfacesAdded`), a power change or an advertisement (`PropertiesChanged`).
    private func waitUntilServing(from startedAt: ContinuousClock.Instant) async throws -> (scanning: Bool, servingAt: ContinuousClock.Instant?) {
        let scanning = Noted(false)
        let (central, computerAdapter) = (central, settings.peripheralAdapter)
        let rules: [DBusMatchRule] = [
            .nameOwnerChanged(BlueZ.service), .interfacesAdded(sender: BlueZ.service),
            .propertiesChanged(sender: BlueZ.service, pathNamespace: "/org/bluez", of: BlueZ.adapter),
            .propertiesChanged(sender: BlueZ.service, pathNamespace: "/org/bluez", of: BlueZ.advertisingManager),
        ]
        let giveUp = startedAt + .seconds(Int64(15 * settings.latencyScale))
        do {
            let servingAt = try await central.connection.until(
                "an active advertisement on \(computerAdapter)", timeout: giveUp - .now, signalledBy: rules
            ) { _ -> ContinuousClock.Instant? in
                if !scanning.value, await central.isPowered(central.adapter) {
                    scanning.set((try? await central.startDiscovery()) != nil)
                }
                guard let active = await central.activeAdvertisements(on: computerAdapter), active >= 1 else { return nil }
                return .now
            }
            return (scanning.value, servingAt)
        } catch is WaitTimeout {
            return (scanning.value, nil)
        }
    }

}
