import Foundation
import Synchronization
import System

/// btvirt's part between two bridges in the self-test: what one controller's client sends reaches the other's at once.
final class Relay: Sendable {
    private let stopped = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)

    init(from source: FileDescriptor, to target: FileDescriptor) {
        Thread { [self] in
            while !stopped.load(ordering: .relaxed) {
                guard let bytes = LoopbackBridge.read(source, within: 0.05) else { continue }
                _ = try? target.writeAll(bytes)
            }
            finished.signal()
        }.start()
    }

    /// Stops the relay; waits for it at most a second (it looks at its flag every 50 ms).
    func stop() {
        stopped.store(true, ordering: .relaxed)
        _ = finished.wait(timeout: .now() + 1)
    }
}

/// Reads `file` on a thread of its own, stamping each ACL packet's marker (its last byte) when it is read.
final class ArrivalRecorder: Sendable {
    private let arrivals = Mutex<[UInt8: RadioInstant]>([:])
    private let done = DispatchSemaphore(value: 0)

    init(file: FileDescriptor, expecting count: Int) {
        Thread { [self] in
            var framer = H4Framer(source: "the self-test's reader")
            let clock = MonotonicClock()
            while let bytes = LoopbackBridge.read(file, within: 5) {
                let now = clock.now()
                let packets = (try? framer.append(bytes)) ?? []
                let total = arrivals.withLock { arrivals in
                    for packet in packets where packet.kind == .acl { arrivals[packet.bytes.last!] = now }
                    return arrivals.count
                }
                if total == count { break }
            }
            done.signal()
        }.start()
    }

    /// The arrivals once all came, or those that came within `seconds`.
    func wait(seconds: Double) -> [UInt8: RadioInstant] {
        _ = done.wait(timeout: .now() + seconds)
        return arrivals.withLock { $0 }
    }
}

/// The packets the self-test plays (the unit tests build theirs with these too).
package enum SelfTestPackets {
    /// LE Connection Complete as btvirt (BlueZ 5.66 emulator/btdev.c) sends it: `status`, `handle`, `role`, a peer
    /// address, the interval in 1.25 ms units, latency 0, supervision timeout 2 s.
    package static func connectionComplete(handle: UInt16, intervalUnits: UInt16, status: UInt8 = 0, role: UInt8 = 0) -> [UInt8] {
        let parameters: [UInt8] = [0x01, status, UInt8(handle & 0xff), UInt8(handle >> 8), role, 0x00,
                                   0x42, 0x00, 0x00, 0x01, 0xaa, 0x00, UInt8(intervalUnits & 0xff), UInt8(intervalUnits >> 8),
                                   0x00, 0x00, 0xc8, 0x00, 0x00]
        return [0x04, 0x3e, UInt8(parameters.count)] + parameters
    }

    /// An ACL packet of `handle` (an L2CAP frame of one byte on the ATT channel) whose last byte is `marker`.
    package static func acl(handle: UInt16, marker: UInt8) -> [UInt8] {
        [0x02, UInt8(handle & 0xff), UInt8(handle >> 8), 0x05, 0x00, 0x01, 0x00, 0x04, 0x00, marker]
    }
}
