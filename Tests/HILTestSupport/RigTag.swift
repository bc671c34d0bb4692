package import Testing

extension Tag {
    /// A suite that needs the rig: it boots one (the vm guest on a machine without Bluetooth or uinput), or runs
    /// only inside one. Its type name ends in `OnRig`, so `swift test --skip 'OnRig/'` (docs/developing.md) runs
    /// every other test; `TestConventionsTests` fails when a tag and a name disagree.
    @Tag package static var rig: Self
}

/// The fast command's skip pattern: every rig suite's test IDs contain it (`Module.NameOnRig/test()`).
package let rigSuiteSkipPattern = "OnRig/"

extension Trait where Self == ConditionTrait {
    /// A rig test that runs inside the guest `InRigSuitesOnRig` boots once for all of them (its `hil run` there uses
    /// the guest's rig), instead of booting a guest of its own from the host: each boot costs about 20 s.
    package static var inSharedGuest: Self {
        .enabled(if: RigGuest.isInsideRig, "runs inside the rig's shared guest, started from the host by InRigSuitesOnRig")
    }

    /// A rig test that boots its own guest (`hil vm exec`, the host's side of the vm rig): from the host only.
    package static var bootsItsOwnGuest: Self {
        .disabled(if: RigGuest.isInsideRig, "boots a guest of its own: runs from the host")
    }
}
