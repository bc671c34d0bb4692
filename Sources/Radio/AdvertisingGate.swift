/// Whether the host behind a bridge has connectable advertising on, from the commands it sends its controller: a
/// central can connect only to a peripheral that advertises. btvirt does not check that (its LE Create Connection
/// reaches any controller it knows by address), so without this a computer that stopped advertising after a phone
/// left would still be found again by the phone's reconnect, which no real radio allows.
///
/// Read as a controller keeps it (Core spec Vol 4 Part E, 7.8.9, 7.8.56, 7.7.65.18; Vol 6 Part B, 4.4.2): the host
/// turns advertising on and off (LE Set Advertising Enable, LE Set Extended Advertising Enable, LE Remove Advertising
/// Set, LE Clear Advertising Sets, Reset); legacy advertising stops when a peripheral link is made, and an extended
/// set when the controller says it ended (LE Advertising Set Terminated). The kernel keeps the same account and turns
/// advertising on again when the link ends, as it must with a real controller.
package struct AdvertisingGate: Sendable, Hashable {
    /// Legacy advertising (LE Set Advertising Enable) is on.
    private(set) var legacy = false
    /// The extended advertising sets that are on, by handle.
    private(set) var sets: Set<UInt8> = []

    package init() {}

    /// Whether a central may connect now.
    package var open: Bool { legacy || !sets.isEmpty }

    /// Reads a command the host sent; true when it changed whether the gate is open.
    package mutating func observe(_ command: H4Packet) -> Bool {
        guard let opcode = command.opcode else { return false }
        let before = open
        let parameters = Array(command.bytes.dropFirst(4))
        switch opcode {
        case 0x0c03:  // Reset
            legacy = false
            sets = []
        case 0x200a:  // LE Set Advertising Enable: enable
            guard let enable = parameters.first else { return false }
            legacy = enable == 1
        case 0x2039:  // LE Set Extended Advertising Enable: enable, number of sets, then 4 bytes a set (handle first)
            guard parameters.count >= 2 else { return false }
            let count = Int(parameters[1])
            let handles = (0..<count).compactMap { 2 + 4 * $0 < parameters.count ? parameters[2 + 4 * $0] : nil }
            if parameters[0] == 1 {
                sets.formUnion(handles)
            } else if count == 0 {
                sets = []
            } else {
                sets.subtract(handles)
            }
        case 0x203c:  // LE Remove Advertising Set: handle
            guard let handle = parameters.first else { return false }
            sets.remove(handle)
        case 0x203d:  // LE Clear Advertising Sets
            sets = []
        default:
            return false
        }
        return open != before
    }

    /// Reads an event the controller sent: a peripheral link stops legacy advertising, LE Advertising Set Terminated
    /// (0x3e/0x12: subevent, status, handle, …) the set it names.
    /// `link` is the packet read as a link event (`LinkEvent(event)`).
    package mutating func observeEvent(_ event: H4Packet, _ link: LinkEvent?) {
        if Self.peripheralConnection(event, link) != nil { legacy = false }
        let p = Array(event.eventParameters)
        if event.eventCode == 0x3e, p.count >= 3, p[0] == 0x12 { sets.remove(p[2]) }
    }

    /// The handle of an LE Connection Complete (or Enhanced, v1 or v2) in which this controller is the peripheral;
    /// nil for any other packet or a failed connection.
    /// `link` is the packet read as a link event.
    package static func peripheralConnection(_ packet: H4Packet, _ link: LinkEvent?) -> UInt16? {
        guard case .connected(let handle, _, _) = link else { return nil }
        let p = Array(packet.eventParameters)
        // subevent, status, handle (2), role (0x01: peripheral)
        return p.count > 4 && p[4] == 0x01 ? handle : nil
    }
}
