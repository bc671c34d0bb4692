extension ChildProcess {
    /// How a child ended.
    package enum Termination: Sendable, Equatable, CustomStringConvertible {
        /// It called exit with this code (-1: its status could not be collected, someone else reaped it).
        case exited(Int32)
        /// A signal killed it.
        case signaled(Int32)

        /// The shell's convention: the exit code, or 128 + N for a death by signal N.
        package var status: Int32 {
            switch self {
            case .exited(let code): code
            case .signaled(let number): 128 + number
            }
        }

        package var description: String {
            switch self {
            case .exited(let code): "exited with status \(code)"
            case .signaled(let number): "killed by signal \(number)"
            }
        }

        /// Decodes a `waitpid` status.
        init(waitStatus status: Int32) {
            let signal = status & 0x7F
            self = signal == 0 ? .exited((status >> 8) & 0xFF) : .signaled(signal)
        }
    }
}
