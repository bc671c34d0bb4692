package import ScenarioDriver

/// The end of a scenario on BLE. Powering the computer's adapter off drops the link at once, where BlueZ's
/// Disconnect (and RemoveDevice on a live link) give profiles 2 s first; BlueZ answers once the kernel has closed
/// the adapter's connections. The link goes first, then the computer stops while the phone forgets it. Not both at
/// once: the phone's bluetoothd subscribes again on every reconnect, so bluetoothd may be waiting for the computer's
/// answer to AcquireNotify, and an UnregisterApplication it takes then frees the characteristic under that call
/// (bluez issue #525): bluetoothd 5.66 crashed so at the end of "the phone gives up after the last reconnect
/// attempt". With the link down first, bluetoothd drops the pending call instead. The computer's adapter is powered
/// on again only once the computer has stopped: with its advertisement still registered, the kernel resumes
/// advertising at power-on, and btvirt's emulated controller sometimes times that out (`command 0x2006 tx
/// timeout`) and, once in a long run, never answers again, which made every later scenario an error.
extension BLEPhoneLink {
    package func tearDown(erred: Bool, phase: (String) -> Void, stopComputer: @escaping @Sendable () async -> Void) async
        -> LinkTeardown
    {
        // As the phone app stops listening when it leaves the computer: before the computer stops.
        statusWatcher.stop()
        var teardown = LinkTeardown()
        var linkDown = await powerOffComputersAdapter(&teardown)
        async let computerStopped: Void = stopComputer()
        if remote != nil {
            if linkDown { linkDown = await dropLink(&teardown) }
            phase("link down, computer forgotten")
        }
        await computerStopped
        await radio.restore(&teardown)
        await restoreAdapters(erred: erred || !teardown.problems.isEmpty, linkDown: linkDown, &teardown, phase: phase)
        return teardown
    }

    /// The computer's adapter off, so the link drops at once. Returns false when that failed.
    private func powerOffComputersAdapter(_ teardown: inout LinkTeardown) async -> Bool {
        guard remote != nil else { return true }
        do {
            try await central.setPowered(settings.peripheralAdapter, false)
            return true
        } catch {
            teardown.problems.append("tearing the link down failed: \(error)")
            return false
        }
    }

    /// After the computer's adapter went off: the phone sees the link down and forgets the computer.
    private func dropLink(_ teardown: inout LinkTeardown) async -> Bool {
        guard let remote else { return true }
        do {
            try await waitUntilDisconnected(remote, what: "the end of the scenario", within: .seconds(30))
            try await central.forget(remote)
            return true
        } catch {
            teardown.problems.append("tearing the link down failed: \(error)")
            return false
        }
    }

    /// After the computer stopped: its adapter is powered on for the next scenario. After an error the phone's
    /// adapter is powered off and on too, which drops a connection attempt left pending (BlueZ then answers every
    /// Connect with "Operation already in progress", and one error became every later scenario's), and it forgets
    /// every device it knew.
    private func restoreAdapters(erred: Bool, linkDown: Bool, _ teardown: inout LinkTeardown, phase: (String) -> Void) async {
        let adapterOn = await powerOnComputersAdapter(&teardown)
        phase("computer's adapter on")
        guard erred || !linkDown || !adapterOn else { return }
        let phone = central.adapter
        do {
            try await central.setPowered(phone, false)
            try await central.waitUntilPowered(phone, false)
            // BlueZ removes devices only on a powered adapter (RemoveDevice answers NotReady otherwise).
            _ = try await Self.powerOn(phone, central)
            let forgotten = try await central.forgetAllDevices()
            teardown.notes.append("rig: after the error the phone's adapter \(phone) was powered off and on and \(forgotten) device(s) forgotten, for the next scenario")
        } catch {
            teardown.notes.append("rig: resetting the phone's adapter after the error failed, the next scenario may be affected: \(error)")
            do {
                _ = try await Self.powerOn(phone, central)
            } catch {
                teardown.rigBroken = teardown.rigBroken ?? "the phone's adapter \(phone) no longer powers on (\(error))"
            }
        }
        phase("phone reset after the error")
    }

    /// Powers the computer's adapter on for the next scenario, also when the phone never connected: a computer that
    /// could not power it on is found here too. One that no longer powers on breaks the rig: the run stops instead
    /// of failing every later scenario. Returns whether it is on.
    private func powerOnComputersAdapter(_ teardown: inout LinkTeardown) async -> Bool {
        let computer = settings.peripheralAdapter
        do {
            let tries = try await Self.powerOn(computer, central)
            if tries > 1 {
                teardown.notes.append("rig: \(computer) powered on at try \(tries) after the scenario (the emulated controller timed out a command; dmesg has it)")
            }
            return true
        } catch {
            teardown.notes.append("rig: the computer's adapter did not power on again after the scenario: \(error)")
            teardown.rigBroken = teardown.rigBroken ?? "the computer's adapter \(computer) no longer powers on (\(error))"
            return false
        }
    }
}
