import Foundation

/// The processes under /proc, as the rig needs them: by name, and their NUL-separated fields.
package enum ProcessTable {
    /// The pids whose name (`/proc/PID/comm`) is `name`, under `root` (`/`, or a fixture root in tests).
    package static func pids(named name: String, root: String = "/") -> [Int32] {
        let proc = (root as NSString).appendingPathComponent("proc")
        return ((try? FileManager.default.contentsOfDirectory(atPath: proc)) ?? []).compactMap(Int32.init).filter {
            (try? String(contentsOfFile: "\(proc)/\($0)/comm", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) == name
        }
    }

    /// A NUL-separated file of a process (`cmdline`, `environ`), split; empty when it cannot be read.
    package static func fields(_ file: String, of pid: Int32) -> [String] {
        guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/\(file)") else { return [] }
        return data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
    }
}
