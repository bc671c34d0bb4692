import Foundation
import System

/// The kernel's HCI monitor channel (the one btmon reads), opened for one adapter's frames: every command the
/// kernel sends to the controller, every event back, and the adapter's open and close, from the moment it is
/// opened. Needs CAP_NET_RAW (the vm and virtual rigs run as root).
package final class HCIMonitorChannel {
    /// A monitor frame's opcode (`struct hci_mon_hdr`, include/net/bluetooth/hci_mon.h).
    enum Opcode: UInt16 {
        case commandSent = 2
        case event = 3
        case closeIndex = 9
    }

    private let socket: FileDescriptor
    /// The socket's number.
    var descriptor: Int32 { socket.rawValue }
    /// The adapter's index: 0 for hci0.
    let index: UInt16

    package init(adapter: String) throws(RigError) {
        guard adapter.hasPrefix("hci"), let index = UInt16(adapter.dropFirst(3)) else {
            throw RigError(.fault, "\(adapter) is not an hciN name")
        }
        let number = Glibc.socket(31 /* AF_BLUETOOTH */, Int32(SOCK_RAW.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 1 /* BTPROTO_HCI */)
        guard number >= 0 else { throw RigError(.fault, "cannot open an HCI socket: \(Errno.current)") }
        let socket = FileDescriptor(owning: number)
        // struct sockaddr_hci { sa_family_t hci_family; unsigned short hci_dev; unsigned short hci_channel; }
        var address: (UInt16, UInt16, UInt16) = (31, 0xffff /* HCI_DEV_NONE */, 2 /* HCI_CHANNEL_MONITOR */)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(number, $0, 6) }
        }
        guard bound == 0 else { throw RigError(.fault, "cannot open the HCI monitor channel: \(Errno.current)") }
        self.socket = socket
        self.index = index
    }

    /// Every frame the kernel has queued since the last read (all adapters'), without waiting.
    func readAvailable() -> [[UInt8]] {
        var frames: [[UInt8]] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            guard count > 0 else { return frames }
            frames.append(Array(buffer.prefix(count)))
        }
    }

    /// `struct hci_mon_hdr { __le16 opcode; __le16 index; __le16 len; }`.
    static func header(_ frame: [UInt8]) -> (opcode: UInt16, index: UInt16)? {
        guard frame.count >= 6 else { return nil }
        return (UInt16(frame[0]) | UInt16(frame[1]) << 8, UInt16(frame[2]) | UInt16(frame[3]) << 8)
    }

    /// The HCI opcode a Command Complete (0x0e: code, length, number of packets, opcode) or Command Status (0x0f: code,
    /// length, status, number of packets, opcode) event answers; nil for another frame.
    static func answeredOpcode(_ frame: [UInt8]) -> UInt16? {
        guard let header = header(frame), header.opcode == Opcode.event.rawValue, frame.count >= 7 else { return nil }
        let at: Int
        switch frame[6] {
        case 0x0e: at = 9
        case 0x0f: at = 10
        default: return nil
        }
        guard frame.count >= at + 2 else { return nil }
        return UInt16(frame[at]) | UInt16(frame[at + 1]) << 8
    }

    /// A sent command's HCI opcode: the payload after the header starts with it (2 bytes, little-endian), then the
    /// parameter length and the parameters. Nil for a frame too short to hold one.
    static func commandOpcode(_ frame: [UInt8]) -> UInt16? {
        guard frame.count >= 8 else { return nil }
        return UInt16(frame[6]) | UInt16(frame[7]) << 8
    }
}
