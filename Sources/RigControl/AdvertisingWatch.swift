import Foundation
import Waiting

/// Whether an emulated controller was left advertising when its adapter went off, from the HCI commands sent to
/// it as the kernel's HCI monitor channel shows them (the channel btmon reads).
///
/// `EmulatedRadio.silenceAdvertising` turns advertising off before the rig powers the computer's adapter off, but
/// the kernel can turn it on again in between: one failed run's HCI trace shows the rig's LE Set Advertise Enable
/// (off), then the kernel's LE Set Advertising Parameters and Enable (on) 25 ms later, then the power-off. The
/// emulated controller then advertised while off, the phone connected to that ghost, and the phone's link stayed
/// stuck for the rest of the scenario (1 of 620 scenarios in a 10-repeat suite run). The watch sees it happen, so
/// the rig can power the adapter on (its HCI Reset stops the controller) and off again.
package final class AdvertisingWatch {
    typealias Opcode = HCIMonitorChannel.Opcode

    let channel: HCIMonitorChannel
    var index: UInt16 { channel.index }

    /// Opens the monitor channel; frames sent to `adapter` ("hci0") from now on are kept by the kernel until read.
    package init(adapter: String) throws(RigError) {
        channel = try HCIMonitorChannel(adapter: adapter)
    }

    /// After the adapter was powered off: whether the last advertising enable sent to it before it closed turned
    /// advertising on. Waits up to `within` for the close; nil when no enable or disable was seen at all.
    /// The channel is read every 5 ms: the kernel queues its frames, and nothing announces the close to a reader.
    /// - Throws: `CancellationError` when the task is cancelled.
    package func leftAdvertising(within: Duration = .milliseconds(500)) async throws -> Bool? {
        var frames: [[UInt8]] = []
        _ = try await Poll.upTo(within, every: .milliseconds(5)) { () -> Void? in
            frames += channel.readAvailable()
            return Self.closed(frames, index: index) ? () : nil
        }
        return Self.advertisingLeftOn(frames, index: index)
    }

    /// Whether `frames` include the close of device `index`.
    static func closed(_ frames: [[UInt8]], index: UInt16) -> Bool {
        frames.contains {
            let header = HCIMonitorChannel.header($0)
            return header?.opcode == Opcode.closeIndex.rawValue && header?.index == index
        }
    }

    /// The state the last LE Set Advertising Enable (0x200a) or LE Set Extended Advertising Enable (0x2039) sent
    /// to device `index` before its close asked for; nil if there was none.
    static func advertisingLeftOn(_ frames: [[UInt8]], index: UInt16) -> Bool? {
        var on: Bool?
        for frame in frames {
            guard let header = HCIMonitorChannel.header(frame), header.index == index else { continue }
            if header.opcode == Opcode.closeIndex.rawValue { break }
            // A sent command: opcode, parameter length, parameters; the enable flag first.
            guard header.opcode == Opcode.commandSent.rawValue, frame.count >= 10,
                  let command = HCIMonitorChannel.commandOpcode(frame) else { continue }
            if command == 0x200a || command == 0x2039 { on = frame[9] != 0 }
        }
        return on
    }
}
