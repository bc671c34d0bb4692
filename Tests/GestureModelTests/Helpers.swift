import GestureModel
import RemoteTouchProtocol

func ms(_ value: Double) -> Duration { .microseconds(Int64((value * 1000).rounded())) }

func settings(_ configure: (inout GestureSettings) -> Void = { _ in }) -> GestureSettings {
    var settings = GestureSettings()
    settings.acceleration = .none
    configure(&settings)
    return settings
}

func run(_ inputs: [TimedInput], _ settings: GestureSettings, until end: Duration? = nil) -> [GestureOutput] {
    GestureProcessor.process(inputs, settings: settings, until: end)
}

func commands(_ outputs: [GestureOutput]) -> [Command] {
    outputs.compactMap(\.command)
}

/// Total cursor (or drag) motion sent.
func totalMotion(_ outputs: [GestureOutput]) -> Point {
    commands(outputs).reduce(Point.zero) { total, command in
        switch command {
        case .cursorMove(let delta), .dragMove(let delta): Point(x: total.x + delta.x, y: total.y + delta.y)
        default: total
        }
    }
}

func touch(_ x: Double, _ y: Double, id: Int = 0) -> TouchPoint { TouchPoint(id: id, x: x, y: y) }

let trace = TouchTrace()
let center = Point(x: 180, y: 300)
