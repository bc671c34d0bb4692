import CommandMapping
import RemoteTouchProtocol

/// What the computer injected for pointer reports (`CommandMapper.pointer`, the hid and udp transports), summed:
/// the buttons pressed and released, and the motion. An event a pointer report should never produce traps.
struct PointerEvents: Equatable {
    var pressed = MouseButtons()
    var released = MouseButtons()
    var dx = 0
    var dy = 0
    var wheel = 0
    var wheelHiRes = 0

    /// What `mapper` emits for one report: one frame or none; each button at most once.
    init(mapping input: PointerInput, with mapper: inout CommandMapper, buttons: Bool) {
        let frames = mapper.pointer(input, buttons: buttons)
        precondition(frames.count <= 1, "\(input) became \(frames.count) frames")
        for event in frames.flatMap(\.events) {
            let value = Int(event.value)
            switch event.code {
            case .relX: dx += value
            case .relY: dy += value
            case .relWheel: wheel += value
            case .relWheelHiRes: wheelHiRes += value
            case .btnLeft: button(.left, down: value, input)
            case .btnRight: button(.right, down: value, input)
            case .btnMiddle: button(.middle, down: value, input)
            default: preconditionFailure("\(input) emitted \(event)")
            }
        }
        precondition(frames.isEmpty == (self == PointerEvents()), "\(input) emitted an empty frame")
    }

    init() {}

    private mutating func button(_ bit: MouseButtons, down value: Int, _ input: PointerInput) {
        precondition(value == 0 || value == 1, "\(input): a button event of value \(value)")
        precondition(!pressed.contains(bit) && !released.contains(bit), "\(input): one button twice in a frame")
        if value == 1 { pressed.insert(bit) } else { released.insert(bit) }
    }

    /// The motion `input` asks for, as events: REL_X, REL_Y, REL_WHEEL with 120 hi-res units a notch.
    func hasMotion(of input: PointerInput, times: Int = 1) -> Bool {
        dx == input.dx * times && dy == input.dy * times && wheel == input.wheel * times
            && wheelHiRes == wheel * MappingTable.hiResUnitsPerNotch
    }
}
