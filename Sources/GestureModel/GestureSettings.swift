public import RemoteTouchProtocol

/// A cursor or scroll sensitivity: 0.5× to 3.0× in 0.1 steps (R8.1).
public struct Sensitivity: Sendable, Hashable, CustomStringConvertible {
    public static let range: ClosedRange<Double> = 0.5...3.0
    public static let standard = try! Sensitivity(1.0)

    public let value: Double

    /// - Throws: `GestureSettingsError` for values outside 0.5…3.0 or off the 0.1 grid (0.4, 3.1, 1.25).
    public init(_ value: Double) throws(GestureSettingsError) {
        guard value.isFinite, Sensitivity.range.contains(value) else {
            throw GestureSettingsError("sensitivity \(value) is outside 0.5...3.0 (R8.1)")
        }
        let tenths = (value * 10).rounded()
        guard abs(value * 10 - tenths) < 1e-9 else {
            throw GestureSettingsError("sensitivity \(value) is not a multiple of 0.1 (R8.1: 0.1 steps)")
        }
        self.value = tenths / 10
    }

    public var description: String { "\(value)×" }
}

/// The iPad design's acceleration curves: factor = 1 + k·v, v in points per millisecond.
public enum AccelerationCurve: String, Sendable, Hashable, CaseIterable {
    case none
    case light
    case medium
    case heavy

    /// k in 1 + k·v.
    public var gain: Double {
        switch self {
        case .none: 0
        case .light: 0.3
        case .medium: 0.6
        case .heavy: 1.0
        }
    }
}

/// A setting outside what the requirements allow.
///
/// It has the package's error shape, what, code and hint (System's `ExplainedError`: this module does
/// not depend on System, and `hil` declares the conformance).
public struct GestureSettingsError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of failure.
    public enum Code: String, Sendable, Hashable {
        /// A sensitivity outside 0.5...3.0, or not in steps of 0.1 (R8.1).
        case invalidSensitivity
    }

    public var message: String
    public init(_ message: String) { self.message = message }

    public var description: String { what }
    /// `.invalidSensitivity`, the one kind there is.
    public var code: Code { .invalidSensitivity }
    /// The value and the rule it breaks: `sensitivity 3.5 is outside 0.5...3.0 (R8.1)`.
    public var what: String { message }
    /// None: the message names the rule.
    public var hint: String? { nil }
}

/// Everything the phone model's behaviour depends on. Defaults are the seeds' numbers; the long timers are
/// settings so a scenario can shorten them (DESIGN.md, "Timers in scenarios").
public struct GestureSettings: Sendable, Hashable {
    public var mode: ControlMode = .basicMouse
    public var sensitivity: Sensitivity = .standard
    public var scrollSensitivity: Sensitivity = .standard
    /// iPad design default: medium.
    public var acceleration: AccelerationCurve = .medium
    /// R1.4: the speed-based factor is kept within 0.5×…3.0×.
    public static let speedFactorRange: ClosedRange<Double> = 0.5...3.0

    /// A finger must move this far (points) before a touch is a swipe rather than a tap (iPad design).
    public var movementThreshold: Double = 5
    /// Two fingers scroll once their midpoint has moved this far (points).
    public var scrollActivation: Double = 8
    /// Two fingers pinch once their distance has changed this much (points).
    public var pinchActivation: Double = 15
    /// Three fingers trigger a system gesture once their midpoint has moved this far (points; ours).
    public var threeFingerActivation: Double = 50
    /// A one-finger swipe in media mode must travel this far vertically to change the volume (ours).
    public var mediaSwipeDistance: Double = 30

    /// R2.3: a second tap starting within this time of the first tap's release makes a double tap.
    public var doubleTapInterval: Duration = .milliseconds(300)
    /// Touches shorter than this can be taps; holding this long without moving arms a drag (iPad design).
    public var longPressDuration: Duration = .milliseconds(500)
    /// R1.3: movement is coalesced and sent at most (and, while moving, at least) every 16 ms.
    public var sendInterval: Duration = .milliseconds(16)
    /// R11.1: no input for this long makes the phone idle.
    public var idleTimeout: Duration = .seconds(60)
    /// R11.2: while idle, at most one send per this interval.
    public var idleSendInterval: Duration = .seconds(10)

    public init() {}

    /// Speed-based factor for a movement at `pointsPerMillisecond` (R1.4 with the iPad curves).
    public func speedFactor(pointsPerMillisecond velocity: Double) -> Double {
        let raw = 1 + acceleration.gain * max(0, velocity)
        return min(max(raw, Self.speedFactorRange.lowerBound), Self.speedFactorRange.upperBound)
    }
}
