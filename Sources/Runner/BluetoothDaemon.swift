import Rig

// BluetoothDaemon, DeniedUinputNode and EmulatedRadio moved to the Rig module (they manipulate the rig).
// These aliases keep ScenarioRunner.swift compiling until it imports Rig itself; delete this file then.
typealias BluetoothDaemon = Rig.BluetoothDaemon
typealias DeniedUinputNode = Rig.DeniedUinputNode
typealias EmulatedRadio = Rig.EmulatedRadio
