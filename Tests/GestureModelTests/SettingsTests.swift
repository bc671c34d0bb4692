import GestureModel
import Testing

@Suite("Sensitivity and speed factor (R1.4, R8)")
struct SettingsTests {
    @Test("sensitivity accepts 0.5...3.0 in 0.1 steps", arguments: [0.5, 0.6, 1.0, 1.7, 2.9, 3.0])
    func accepts(value: Double) throws {
        #expect(try Sensitivity(value).value == value)
    }

    @Test("sensitivity refuses 0.4, 3.1, off-grid and non-finite values",
          arguments: [0.4, 3.1, 0.49, 3.01, 1.25, 1.05, 0, -1, .nan, .infinity])
    func refuses(value: Double) {
        #expect(throws: GestureSettingsError.self) { try Sensitivity(value) }
    }

    @Test("refusal messages name the rule")
    func messages() {
        #expect(throws: GestureSettingsError("sensitivity 0.4 is outside 0.5...3.0 (R8.1)")) { try Sensitivity(0.4) }
        #expect(throws: GestureSettingsError("sensitivity 1.25 is not a multiple of 0.1 (R8.1: 0.1 steps)")) {
            try Sensitivity(1.25)
        }
    }

    @Test("acceleration curves are 1 + k·v with k = 0, 0.3, 0.6, 1.0",
          arguments: [(AccelerationCurve.none, 1.0), (.light, 1.3), (.medium, 1.6), (.heavy, 2.0)])
    func curves(curve: AccelerationCurve, atOnePointPerMs: Double) {
        var settings = GestureSettings()
        settings.acceleration = curve
        #expect(abs(settings.speedFactor(pointsPerMillisecond: 1) - atOnePointPerMs) < 1e-12)
        #expect(settings.speedFactor(pointsPerMillisecond: 0) == 1)
    }

    @Test("the speed factor is kept within 0.5x...3.0x")
    func clamped() {
        var settings = GestureSettings()
        settings.acceleration = .heavy
        #expect(settings.speedFactor(pointsPerMillisecond: 2) == 3.0)
        #expect(settings.speedFactor(pointsPerMillisecond: 50) == 3.0)
        #expect(settings.speedFactor(pointsPerMillisecond: -5) == 1.0)
        for curve in AccelerationCurve.allCases {
            settings.acceleration = curve
            for velocity in stride(from: 0.0, through: 20, by: 0.25) {
                #expect(GestureSettings.speedFactorRange.contains(settings.speedFactor(pointsPerMillisecond: velocity)))
            }
        }
    }
}
