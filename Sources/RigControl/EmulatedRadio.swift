import Foundation
import System
import Waiting

/// A workaround for btvirt, the emulated controllers of the vm and virtual rigs, when the rig takes the
/// computer's radio away.
///
/// The kernel re-enables a connectable advertisement 2 s into a connection (its advertising instance rotates).
/// Powered off while that advertisement is on, the emulated controller never answers the kernel's LE Set
/// Advertising Parameters (dmesg: `Opcode 0x2006 failed: -22`, `command 0x2006 tx timeout`) and goes on
/// advertising from a controller that is off: the phone's next connect attempt then completes against that
/// ghost (HCI trace: Connection Complete on the phone's controller only), and the phone's link is stuck
/// "connected" to nothing. A real radio that goes off falls silent at once; so, before powering the adapter
/// off, the rig turns its advertising off with a raw HCI command (LE Set Advertising Enable 0x00), as the radio
/// going away would. The kernel can still turn it on again before the power-off; `AdvertisingWatch` catches
/// that. Needs CAP_NET_RAW (the vm and virtual rigs run as root).
package enum EmulatedRadio {
    /// Sends LE Set Advertising Enable (off) to `adapter` ("hci0") and waits for the controller to take it (its
    /// Command Complete on the HCI monitor channel, at most 50 ms) before the kernel's power-off sequence starts;
    /// returns why it could not, or nil.
    /// - Throws: `CancellationError` when the task is cancelled.
    package static func silenceAdvertising(_ adapter: String) async throws -> String? {
        guard adapter.hasPrefix("hci"), let index = UInt16(adapter.dropFirst(3)) else { return "\(adapter) is not an hciN name" }
        let number = socket(31 /* AF_BLUETOOTH */, Int32(SOCK_RAW.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 1 /* BTPROTO_HCI */)
        guard number >= 0 else { return "cannot open an HCI socket: \(Errno.current)" }
        let descriptor = FileDescriptor(owning: number)
        defer { descriptor.close() }
        // struct sockaddr_hci { sa_family_t hci_family; unsigned short hci_dev; unsigned short hci_channel; }
        var address: (UInt16, UInt16, UInt16) = (31, index, 0 /* HCI_CHANNEL_RAW */)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor.rawValue, $0, 6) }
        }
        guard bound == 0 else { return "cannot bind an HCI socket to \(adapter): \(Errno.current)" }
        // The monitor channel, opened before the command is sent, shows the controller's answer to it.
        let monitor = try? HCIMonitorChannel(adapter: adapter)
        // HCI command packet: type 0x01, opcode 0x200a (OGF 0x08 LE, OCF 0x000a) little-endian, 1 parameter byte.
        let command: [UInt8] = [0x01, 0x0a, 0x20, 0x01, 0x00]
        let written = command.withUnsafeBytes { write(descriptor.rawValue, $0.baseAddress, $0.count) }
        guard written == command.count else { return "cannot send LE Set Advertising Enable to \(adapter): \(Errno.current)" }
        // Let the controller take it before the kernel's power-off sequence starts: its answer, or 50 ms when the
        // monitor channel could not be opened (or the answer does not come).
        _ = try await Poll.upTo(.milliseconds(50), every: .milliseconds(2)) { () -> Void? in
            let frames = monitor?.readAvailable() ?? []
            return frames.contains { answers($0, opcode: 0x200a, index: index) } ? () : nil
        }
        return nil
    }

    /// Whether a monitor frame is adapter `index`'s answer to the command `opcode`.
    static func answers(_ frame: [UInt8], opcode: UInt16, index: UInt16) -> Bool {
        HCIMonitorChannel.header(frame)?.index == index && HCIMonitorChannel.answeredOpcode(frame) == opcode
    }
}
