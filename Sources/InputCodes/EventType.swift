/// Linux input event types (linux/input-event-codes.h). The numbers are kernel ABI.
public enum EventType: UInt16, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case syn = 0x00
    case key = 0x01
    case rel = 0x02
    case abs = 0x03
    case msc = 0x04

    /// `EV_KEY`
    public var description: String {
        switch self {
        case .syn: "EV_SYN"
        case .key: "EV_KEY"
        case .rel: "EV_REL"
        case .abs: "EV_ABS"
        case .msc: "EV_MSC"
        }
    }
}
