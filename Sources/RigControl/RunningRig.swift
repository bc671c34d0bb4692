import Foundation

/// The rig a run is on, as `hil` found it once (its rig file and, inside a rig, what the launcher set), handed to every
/// part of the run through its context: the links, bench, calibrate, soak, the evidence. Nothing below `hil` reads the
/// environment; what a part needs of the rig is here.
package struct RunningRig: Sendable {
    /// One computer adapter and one phone adapter.
    package struct Lane: Sendable, Hashable, CustomStringConvertible {
        package var peripheral: String
        package var central: String

        package init(peripheral: String, central: String) {
            self.peripheral = peripheral
            self.central = central
        }

        /// `hci0:hci1`
        package var description: String { "\(peripheral):\(central)" }
    }

    /// The vm rig's emulated radio as a run changes it: its bridges, and what the rig started it with, which a
    /// `radio` reset gives back.
    package struct Radio: Sendable {
        /// The bridges' controls.
        package var control: RadioControl
        /// The connection interval the rig's bluetoothd asks for, in ms.
        package var intervalMs: Double
        /// The rig's own packet error rate, 0 ≤ P < 1.
        package var packetErrorRate: Double

        package init(control: RadioControl, intervalMs: Double, packetErrorRate: Double) {
            self.control = control
            self.intervalMs = intervalMs
            self.packetErrorRate = packetErrorRate
        }
    }

    /// The rig's name (`vm`, `hardware`).
    package var name: String
    /// Every lane, the rig's own pair first.
    package var lanes: [Lane]
    /// The uinput device name verifiers look for.
    package var uinputName: String
    /// Multiplies every deadline and latency limit (the rig file's `latencyScale`).
    package var latencyScale: Double
    /// The rig's controllers are btvirt's emulated ones (`EmulatedRadio`'s cautions apply).
    package var emulatedControllers: Bool
    /// The links' supervision timeout the rig's bluetoothd asks for (its rig file's `connection`), in ms.
    package var supervisionTimeoutMs: Int
    /// The vm rig's radio bridges; nil when the rig started none.
    package var radio: Radio?
    /// The network transports' hosts; nil when the rig has none.
    package var network: NetworkHosts?
    /// A local folder the scenarios' files are written to while they run (the vm guest's tmpfs); nil: none.
    package var scratch: String?
    /// The vm guest's read-write share, whose results the host copies back and names itself; nil elsewhere.
    package var share: String?

    package init(name: String, lanes: [Lane], uinputName: String, latencyScale: Double = 1, emulatedControllers: Bool = false,
                 supervisionTimeoutMs: Int = ConnectionUpdate.defaultSupervisionTimeoutMs, radio: Radio? = nil,
                 network: NetworkHosts? = nil, scratch: String? = nil, share: String? = nil)
    {
        precondition(!lanes.isEmpty, "a rig has at least one lane")
        self.name = name
        self.lanes = lanes
        self.uinputName = uinputName
        self.latencyScale = latencyScale
        self.emulatedControllers = emulatedControllers
        self.supervisionTimeoutMs = supervisionTimeoutMs
        self.radio = radio
        self.network = network
        self.scratch = scratch
        self.share = share
    }

    /// `results: a/results.json, a/junit.xml` for `files` of `folder`; nil when the folder is in the guest's share,
    /// whose results the host copies back and names where it put them (a person reads the paths they can open, once).
    package func resultsLine(_ files: [String], in folder: String) -> String? {
        if let share, folder == share || folder.hasPrefix(share.hasSuffix("/") ? share : share + "/") { return nil }
        return "results: " + files.map { (folder as NSString).appendingPathComponent($0) }.joined(separator: ", ")
    }
}
