import Foundation
package import Processes
import System

/// One command of a lab run (labgrid-client, ssh, scp): its exit status and everything it printed.
package struct LabProcess: Sendable {
    package var status: Int32
    package var output: String
    /// True when it was stopped at its time limit.
    package var timedOut: Bool

    /// The last `count` lines of the output, for an error message.
    package func tail(_ count: Int = 6) -> String {
        output.split(separator: "\n").suffix(count).joined(separator: "\n")
    }

    /// Runs `executable` to its end (or `timeout`, then it is stopped and the status is 124), stdout and stderr
    /// together, through `ChildProcess.run`.
    package static func run(_ executable: String, _ arguments: [String], environment: [String: String]? = nil,
                           timeout: Duration? = nil) async throws(LabError) -> LabProcess
    {
        do throws(SystemError) {
            let run = try await ChildProcess.run(executable, arguments: arguments, environment: environment, errors: .joined,
                                                 timeout: timeout)
            return LabProcess(status: run.status, output: run.standardOutput, timedOut: false)
        } catch where error.code == .timedOut {
            return LabProcess(status: 124, output: error.details ?? "", timedOut: true)
        } catch {
            throw LabError(.command, error.text, hint: error.hint)
        }
    }

    /// Runs `executable` with its output appended to `file`, until it ends: a long command (a shard's hil run)
    /// whose output is followed from the file.
    package static func start(_ executable: String, _ arguments: [String], log file: String) throws(LabError) -> ChildProcess {
        do throws(SystemError) {
            return try ChildProcess(executable, arguments, output: .appending(file), ownProcessGroup: true)
        } catch {
            throw LabError(.command, error.text, hint: error.hint)
        }
    }
}
