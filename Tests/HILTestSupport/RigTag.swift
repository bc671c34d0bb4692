package import Testing

extension Tag {
    /// A suite that needs the rig: it boots one (the vm guest on a machine without Bluetooth or uinput), or runs
    /// only inside one. It lives in a rig test target (Package.swift's `rigTestTargets`, which `HIL_TESTS=unit swift
    /// test` leaves out) and its type name ends in `OnRig`; `TestConventionsTests` fails when they disagree.
    @Tag package static var rig: Self
}

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
