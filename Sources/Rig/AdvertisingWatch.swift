import Foundation

/// Whether an emulated controller was left advertising when its adapter went off, from the HCI commands sent to
/// it as the kernel's HCI monitor channel shows them (the channel btmon reads).
///
/// `EmulatedRadio.silenceAdvertising` turns advertising off before the rig powers the computer's adapter off, but
/// the kernel can turn it on again in between: one failed run's HCI trace shows the rig's LE Set Advertise Enable
/// (off), then the kernel's LE Set Advertising Parameters and Enable (on) 25 ms later, then the power-off. The
/// emulated controller then advertised while off, the phone connected to that ghost, and the phone's link stayed
/// stuck for the rest of the scenario (1 of 620 scenarios in a 10-repeat suite run). The watch sees it happen, so
/// the rig can power the adapter on (its HCI Reset stops the controller) and off again.
public final class AdvertisingWatch {
    /// A monitor frame's opcode (`struct hci_mon_hdr`, include/net/bluetooth/hci_mon.h).
    enum Opcode: UInt16 {
        case commandSent = 2
        case closeIndex = 9
    }

    let descriptor: Int32
    let index: UInt16
    let adapter: String

    /// Opens the monitor channel; frames sent to `adapter` ("hci0") from now on are kept by the kernel until read.
    /// Needs CAP_NET_RAW (the vm and virtual rigs run as root).
    public init(adapter: String) throws(RigError) {
        guard adapter.hasPrefix("hci"), let index = UInt16(adapter.dropFirst(3)) else {
            throw RigError(.fault, "\(adapter) is not an hciN name")
        }
        let descriptor = socket(31 /* AF_BLUETOOTH */, Int32(SOCK_RAW.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 1 /* BTPROTO_HCI */)
        guard descriptor >= 0 else { throw RigError(.fault, "cannot open an HCI socket: \(String(cString: strerror(errno)))") }
        // struct sockaddr_hci { sa_family_t hci_family; unsigned short hci_dev; unsigned short hci_channel; }
        var address: (UInt16, UInt16, UInt16) = (31, 0xffff /* HCI_DEV_NONE */, 2 /* HCI_CHANNEL_MONITOR */)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, 6) }
        }
        guard bound == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw RigError(.fault, "cannot open the HCI monitor channel: \(reason)")
        }
        self.descriptor = descriptor
        self.index = index
        self.adapter = adapter
    }

    deinit { close(descriptor) }

    /// After the adapter was powered off: whether the last advertising enable sent to it before it closed turned
    /// advertising on. Waits up to `within` for the close; nil when no enable or disable was seen at all.
    public func leftAdvertising(within: Duration = .milliseconds(500)) -> Bool? {
        var frames: [[UInt8]] = []
        let giveUp = ContinuousClock.now + within
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if count > 0 {
                frames.append(Array(buffer.prefix(count)))
                continue
            }
            if Self.closed(frames, index: index) || ContinuousClock.now >= giveUp { break }
            usleep(5_000)
        }
        return Self.advertisingLeftOn(frames, index: index)
    }

    /// Whether `frames` include the close of device `index`.
    static func closed(_ frames: [[UInt8]], index: UInt16) -> Bool {
        frames.contains { header($0)?.opcode == Opcode.closeIndex.rawValue && header($0)?.index == index }
    }

    /// The state the last LE Set Advertising Enable (0x200a) or LE Set Extended Advertising Enable (0x2039) sent
    /// to device `index` before its close asked for; nil if there was none.
    static func advertisingLeftOn(_ frames: [[UInt8]], index: UInt16) -> Bool? {
        var on: Bool?
        for frame in frames {
            guard let header = header(frame), header.index == index else { continue }
            if header.opcode == Opcode.closeIndex.rawValue { break }
            // A sent command: opcode (2 bytes, little-endian), parameter length, parameters; the enable flag first.
            guard header.opcode == Opcode.commandSent.rawValue, frame.count >= 10 else { continue }
            let command = UInt16(frame[6]) | UInt16(frame[7]) << 8
            if command == 0x200a || command == 0x2039 { on = frame[9] != 0 }
        }
        return on
    }

    /// `struct hci_mon_hdr { __le16 opcode; __le16 index; __le16 len; }`.
    static func header(_ frame: [UInt8]) -> (opcode: UInt16, index: UInt16)? {
        guard frame.count >= 6 else { return nil }
        return (UInt16(frame[0]) | UInt16(frame[1]) << 8, UInt16(frame[2]) | UInt16(frame[3]) << 8)
    }
}
