import Foundation
package import RigControl
import StrictJSON

/// The `HIL_*` variables, typed: how a rig tells the command running in it which rig it is and which adapters
/// to use, and where the rig files are. Every place that reads or sets them goes through this type.
///
/// | variable | field |
/// |---|---|
/// | `HIL_RIG` | `rig`: set inside a rig (`hil rig exec`, `hil vm exec`), its kind |
/// | `HIL_PERIPHERAL_ADAPTER` | `peripheralAdapter` (hciN, default hci0) |
/// | `HIL_CENTRAL_ADAPTER` | `centralAdapter` (hciN, default hci1) |
/// | `HIL_LANES` | `lanes`: every adapter pair, `hci0:hci1,hci2:hci3` (default: the one pair above) |
/// | `HIL_SHARE` | `share`: the vm guest's read-write share (results come back through it) |
/// | `HIL_SCRATCH` | `scratch`: a local folder (tmpfs) for the files a scenario writes while it runs; the vm guest sets it, as its share is slow to write |
/// | `HIL_RIGS` | `rigsFolder`: the folder of rig files, instead of the project's Rigs/ |
/// | `HIL_RADIO_MODEL`, `HIL_RADIO_INTERVAL_MS`, `HIL_RADIO_ERROR_RATE` | `radio`: the radio model the vm rig started (the rig file's, or `--radio-interval`'s and `--radio-error-rate`'s), for results.json |
/// | `HIL_SUPERVISION_TIMEOUT_MS` | `supervisionTimeoutMs`: the links' supervision timeout the rig's bluetoothd asks for (its rig file's `connection`), which a radio step's connection update keeps |
/// | `HIL_RADIO_CONTROL` | `radioControl`: the folder of the radio bridges' control FIFOs (`control-K`), which `hil calibrate` writes delays to |
/// | `DBUS_SYSTEM_BUS_ADDRESS` | `systemBusAddress`: a virtual rig's private system bus |
/// | `HIL_NET_PHONE_NETNS`, `_BUS`, `_ADDRESS`, `HIL_NET_COMPUTER_…` | `network`: the network transports' two hosts, all six or none (`RigNetwork`; the vm rig sets them when its two hosts are up) |
package struct RigEnvironment: Sendable, Equatable {
    package static let rigVariable = "HIL_RIG"
    package static let peripheralAdapterVariable = "HIL_PERIPHERAL_ADAPTER"
    package static let centralAdapterVariable = "HIL_CENTRAL_ADAPTER"
    package static let lanesVariable = "HIL_LANES"
    package static let shareVariable = "HIL_SHARE"
    package static let scratchVariable = "HIL_SCRATCH"
    package static let rigsFolderVariable = "HIL_RIGS"
    package static let systemBusVariable = "DBUS_SYSTEM_BUS_ADDRESS"
    package static let radioModelVariable = "HIL_RADIO_MODEL"
    package static let radioIntervalVariable = "HIL_RADIO_INTERVAL_MS"
    /// The radio model's packet error rate (`--radio-error-rate`, the rig file's `radio.packetErrorRate`).
    package static let radioErrorRateVariable = "HIL_RADIO_ERROR_RATE"
    package static let radioControlVariable = "HIL_RADIO_CONTROL"
    package static let supervisionTimeoutVariable = "HIL_SUPERVISION_TIMEOUT_MS"

    /// The rig this process runs in (its kind: hardware, virtual, vm); nil outside a rig.
    package var rig: String?
    package var peripheralAdapter: String
    package var centralAdapter: String
    /// Every pair of adapters the rig has, the first being `peripheralAdapter` and `centralAdapter`.
    package var lanes: [Lane]
    package var share: String?

    /// Whether `path` is in the vm guest's share, whose results the host copies back and names where it put them: a
    /// command there leaves the results line to the host, so a person reads the paths they can open, once.
    package func isCopiedBack(_ path: String) -> Bool {
        guard let share else { return false }
        return path == share || path.hasPrefix(share.hasSuffix("/") ? share : share + "/")
    }

    package var scratch: String?
    package var rigsFolder: String?
    package var systemBusAddress: String?
    /// The network transports' two hosts (phone and computer namespaces on veth, each with a bus and avahi); nil
    /// when the rig has none.
    package var network: RigNetwork?
    /// The radio model the rig started; nil when it did not say (a rig other than vm, a command run by hand).
    package var radio: RigDefinition.Radio?
    /// The folder of the radio bridges' control FIFOs (the vm guest's /run/hil-radio); nil without the radio model.
    package var radioControl: String?
    /// The links' supervision timeout the rig's bluetoothd asks for; nil when the rig did not say.
    package var supervisionTimeoutMs: Int?

    /// One computer and one phone: a scenario runs on a lane, and a rig with several runs that many at once.
    package typealias Lane = RunningRig.Lane

    package init(rig: String? = nil, peripheralAdapter: String = "hci0", centralAdapter: String = "hci1", lanes: [Lane]? = nil,
                share: String? = nil, scratch: String? = nil, rigsFolder: String? = nil, systemBusAddress: String? = nil,
                network: RigNetwork? = nil, radio: RigDefinition.Radio? = nil, radioControl: String? = nil)
    {
        self.rig = rig
        self.peripheralAdapter = peripheralAdapter
        self.centralAdapter = centralAdapter
        self.lanes = lanes ?? [Lane(peripheral: peripheralAdapter, central: centralAdapter)]
        self.share = share
        self.scratch = scratch
        self.rigsFolder = rigsFolder
        self.systemBusAddress = systemBusAddress
        self.network = network
        self.radio = radio
        self.radioControl = radioControl
        supervisionTimeoutMs = nil
    }

    /// Reads the variables; unset or empty ones take their defaults.
    /// - Throws: `RigError` naming the variable whose value is malformed (an adapter that is not hciN, a
    ///   relative rig folder or share, a partial or malformed set of `HIL_NET_*`).
    package init(from variables: [String: String]) throws(RigError) {
        func value(_ name: String) -> String? { variables[name].flatMap { $0.isEmpty ? nil : $0 } }
        func adapter(_ name: String, _ fallback: String) throws(RigError) -> String {
            guard let text = value(name) else { return fallback }
            return try Self.adapterName(text, variable: name)
        }
        func folder(_ name: String) throws(RigError) -> String? {
            guard let text = value(name) else { return nil }
            guard text.hasPrefix("/") || name == Self.rigsFolderVariable else {
                throw RigError(.rigFile, "\(name)=\(text) is not an absolute path")
            }
            return text
        }
        let peripheral = try adapter(Self.peripheralAdapterVariable, "hci0")
        let central = try adapter(Self.centralAdapterVariable, "hci1")
        self.init(
            rig: value(Self.rigVariable), peripheralAdapter: peripheral, centralAdapter: central,
            lanes: try value(Self.lanesVariable).map { text throws(RigError) in try Self.lanes(text, first: Lane(peripheral: peripheral, central: central)) },
            share: try folder(Self.shareVariable), scratch: try folder(Self.scratchVariable), rigsFolder: try folder(Self.rigsFolderVariable),
            systemBusAddress: value(Self.systemBusVariable), network: try RigNetwork(from: variables),
            radio: try Self.radio(model: value(Self.radioModelVariable), interval: value(Self.radioIntervalVariable),
                                  errorRate: value(Self.radioErrorRateVariable)),
            radioControl: try folder(Self.radioControlVariable))
        if let text = value(Self.supervisionTimeoutVariable) {
            guard let ms = Int(text), (100...32_000).contains(ms) else {
                throw RigError(.rigFile, "\(Self.supervisionTimeoutVariable)=\(text) is not a supervision timeout (100 to 32000 ms)")
            }
            supervisionTimeoutMs = ms
        }
    }

    /// `HIL_RADIO_MODEL` (immediate, connectionEvents) and, for connection events, `HIL_RADIO_INTERVAL_MS`.
    private static func radio(model: String?, interval: String?, errorRate: String?) throws(RigError) -> RigDefinition.Radio? {
        guard let model else { return nil }
        switch RigDefinition.Radio.Model(rawValue: model) {
        case .immediate: return RigDefinition.Radio()
        case .connectionEvents:
            let rate = try errorRate.map { text throws(RigError) in try RigDefinition.Radio.errorRate(argument: text) } ?? 0
            if let interval, let ms = Double(interval), ms > 0 {
                return RigDefinition.Radio(model: .connectionEvents, intervalMs: ms, packetErrorRate: rate)
            }
            throw RigError(.rigFile, "\(radioModelVariable)=connectionEvents needs \(radioIntervalVariable) in ms, found \(interval ?? "none")")
        case nil:
            throw RigError(.rigFile, "\(radioModelVariable)=\(model) is no radio model: immediate or connectionEvents",
                           hint: "unset it; the vm rig sets it")
        }
    }

    private static func adapterName(_ text: String, variable: String) throws(RigError) -> String {
        guard text.hasPrefix("hci"), UInt16(text.dropFirst(3)) != nil else {
            throw RigError(.rigFile, "\(variable)=\(text) is not an adapter name such as hci0",
                           hint: "unset it, or run the command through `hil rig exec`, which sets it")
        }
        return text
    }

    /// `hci0:hci1,hci2:hci3`: the first pair must be the peripheral and central adapters, and no adapter twice.
    private static func lanes(_ text: String, first: Lane) throws(RigError) -> [Lane] {
        var lanes: [Lane] = []
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            let pair = item.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
            guard pair.count == 2 else {
                throw RigError(.rigFile, "\(lanesVariable)=\(text): \"\(item)\" is not a pair such as hci2:hci3",
                               hint: "unset it, or run the command through `hil vm exec`, which sets it")
            }
            lanes.append(Lane(peripheral: try adapterName(pair[0], variable: lanesVariable), central: try adapterName(pair[1], variable: lanesVariable)))
        }
        let adapters = lanes.flatMap { [$0.peripheral, $0.central] }
        guard lanes.first == first, Set(adapters).count == adapters.count else {
            throw RigError(.rigFile, "\(lanesVariable)=\(text) must start with \(first) (the peripheral and central adapters) and name each adapter once")
        }
        return lanes
    }

    /// This process's variables; a malformed one exits the way `RigError` says (the message names it).
    /// - Throws: `RigError` as `init(from:)`.
    package static func current() throws(RigError) -> RigEnvironment {
        try RigEnvironment(from: ProcessInfo.processInfo.environment)
    }

    /// True inside a rig (`HIL_RIG` set).
    package var isInsideRig: Bool { rig != nil }

    /// The variables to set for a command in this rig; the unset optional ones are left out.
    package var variables: [String: String] {
        var result = [Self.peripheralAdapterVariable: peripheralAdapter, Self.centralAdapterVariable: centralAdapter]
        result[Self.rigVariable] = rig
        if lanes.count > 1 { result[Self.lanesVariable] = lanes.map(\.description).joined(separator: ",") }
        result[Self.shareVariable] = share
        result[Self.scratchVariable] = scratch
        result[Self.rigsFolderVariable] = rigsFolder
        result[Self.systemBusVariable] = systemBusAddress
        if let network { result.merge(network.variables) { $1 } }
        result[Self.radioControlVariable] = radioControl
        result[Self.supervisionTimeoutVariable] = supervisionTimeoutMs.map(String.init)
        if let radio {
            result[Self.radioModelVariable] = radio.model.rawValue
            if radio.model == .connectionEvents { result[Self.radioIntervalVariable] = JSONWriter.numberText(radio.intervalMs) }
            if radio.packetErrorRate > 0 { result[Self.radioErrorRateVariable] = JSONWriter.numberText(radio.packetErrorRate) }
        }
        return result
    }
}
