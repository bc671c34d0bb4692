package import RigControl

extension RigEnvironment {
    /// The running rig as the launcher set it up, for the run's context (`hil` builds it once): this environment's
    /// lanes, radio bridges, hosts and scratch folder, with `definition`'s (the rig file's) uinput name, latency scale,
    /// controllers and links' supervision timeout. A rig file the catalog could not give leaves the defaults.
    package func runningRig(_ definition: RigDefinition?) -> RunningRig {
        let model = radio ?? definition?.radio
        let bridges = radioControl.map { folder in
            RunningRig.Radio(control: RadioControl(folder: folder), intervalMs: model?.intervalMs ?? 0,
                             packetErrorRate: model?.packetErrorRate ?? 0)
        }
        return RunningRig(
            name: rig ?? definition?.name ?? "?", lanes: lanes,
            uinputName: definition?.uinputDeviceName ?? RigDefinition.defaultUinputDeviceName,
            latencyScale: definition?.latencyScale ?? 1, emulatedControllers: definition?.controllers == .btvirt,
            supervisionTimeoutMs: supervisionTimeoutMs ?? definition?.connection.supervisionTimeoutMs ?? ConnectionUpdate.defaultSupervisionTimeoutMs,
            radio: bridges, network: network.map(NetworkHosts.init), scratch: scratch, share: share)
    }
}
