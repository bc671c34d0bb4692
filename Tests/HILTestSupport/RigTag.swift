public import Testing

extension Tag {
    /// A suite that needs the rig: it boots one (the vm guest on a machine without Bluetooth or uinput), or runs
    /// only inside one. Its type name ends in `OnRig`, so `swift test --skip 'OnRig/'` (docs/developing.md) runs
    /// every other test; `TestConventionsTests` fails when a tag and a name disagree.
    @Tag public static var rig: Self
}

/// The fast command's skip pattern: every rig suite's test IDs contain it (`Module.NameOnRig/test()`).
public let rigSuiteSkipPattern = "OnRig/"
