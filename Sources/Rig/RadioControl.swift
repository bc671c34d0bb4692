import Foundation
package import System

/// The vm rig's radio bridges, reached through their control FIFOs (`hil radio --control`, the guest's
/// `/run/hil-radio/control-K`, told to a job as `HIL_RADIO_CONTROL`): one line to each, `delay MS` (hil calibrate) or
/// `error-rate P` (a scenario's radio step). One owner of that folder and of writing to it.
package struct RadioControl: Sendable, Hashable {
    /// Every bridge's FIFO, in order.
    package var fifos: [String]

    /// The FIFOs in `folder` (nil: the rig started no bridges).
    /// - Throws: `RigError` `.fault` saying why there is nothing to write to, with `remedy`.
    package static func find(in folder: String?, remedy: String) throws(RigError) -> RadioControl {
        guard let folder else {
            throw RigError(.fault, "this rig started no radio bridges (HIL_RADIO_CONTROL is unset)", hint: remedy)
        }
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasPrefix("control-") }.sorted()
        guard !names.isEmpty else { throw RigError(.fault, "no radio bridge's control FIFO (control-K) in \(folder)", hint: remedy) }
        return RadioControl(fifos: names.map { folder + "/" + $0 })
    }

    package init(fifos: [String]) {
        self.fifos = fifos
    }

    /// Writes `line` to every bridge. Never blocks: the bridge holds its FIFO open for reading, and a line this short
    /// is written whole.
    /// - Throws: `RigError` `.fault` naming the FIFO that refused it.
    package func send(_ line: String) throws(RigError) {
        let bytes = Array((line + "\n").utf8)
        for fifo in fifos {
            do {
                let file = try FileDescriptor.open(fifo, O_WRONLY | O_NONBLOCK)
                defer { file.close() }
                try file.writeAll(bytes)
            } catch {
                throw RigError(.fault, "cannot send \"\(line)\" to the radio bridge through \(fifo): \(error)",
                               hint: "is its hil radio bridge running? the guest's radio-K.log says")
            }
        }
    }
}
