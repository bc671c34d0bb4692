import HILTestSupport
import Testing

/// Runs the rig-bound `EvdevInRig` suite inside the rig `--rig auto` picks (the vm guest on a machine without
/// uinput), and fails with its output when it does not pass — never skips.
@Suite("Evdev in the rig")
struct EvdevRigTests {
    @Test("EvdevInRig passes inside a rig: discovery, exact frames, timestamps, grab, SYN_DROPPED, EACCES as nobody")
    func inRig() {
        let failure = RigGuest.failure(filter: "EvdevInRig")
        #expect(failure == nil, "\(failure ?? "")")
    }
}
