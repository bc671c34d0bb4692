import ArgumentParser
import System

extension ExitCause {
    /// The status as argument-parser ends a command with it: `throw ExitCause.invalidInput.exit`.
    var exit: ExitCode { ExitCode(rawValue) }
}
