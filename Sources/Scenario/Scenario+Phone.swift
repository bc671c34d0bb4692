import GestureScript

extension Scenario {
    /// Why the Bumble phone cannot run this scenario, or nil. A phone-side `linkDrop` powers the phone's adapter off
    /// in bluetoothd, and the Bumble phone has taken that adapter from bluetoothd (the HCI user channel): such a
    /// scenario is the BlueZ phone's, reported not applicable on Bumble rather than an error every night.
    package var bumblePhoneProblem: String? {
        let phoneDrop = script.steps.firstIndex { step in
            if case .linkDrop(_, side: .phone) = step { return true }
            return false
        }
        guard let phoneDrop else { return nil }
        return "steps[\(phoneDrop)] drops the link from the phone's side by powering its adapter off in bluetoothd, "
            + "and the Bumble phone owns its adapter (the BlueZ phone runs it: hil run --phone bluez)"
    }
}
