import HILTestSupport
import Testing

/// Runs `PeripheralInRig` inside a rig (the vm here; whatever `--rig auto` picks on a nightly box).
@Suite("Peripheral in a rig")
struct PeripheralRigTests {
    @Test("the peripheral works end to end on real BlueZ and uinput")
    func inRig() {
        #expect(RigGuest.failure(filter: "PeripheralInRigTests/") == nil)
    }
}
