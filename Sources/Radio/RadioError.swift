/// A failure of the radio bridge: what was being done, naming the device or socket, and what to do next.
package struct RadioError: Error, Sendable, Hashable, CustomStringConvertible {
    package struct Code: RawRepresentable, Hashable, Sendable {
        package var rawValue: String
        package init(rawValue: String) { self.rawValue = rawValue }
        package init(_ rawValue: String) { self.rawValue = rawValue }

        /// A stream held a byte that starts no H4 packet.
        package static let framing = Code("framing")
        /// /dev/vhci could not be opened or would not make a controller.
        package static let controller = Code("controller")
        /// btvirt's socket could not be reached.
        package static let socket = Code("socket")
        /// Reading or writing one of the two sides failed, or a side closed.
        package static let io = Code("io")
    }

    package var code: Code
    package var message: String
    package var hint: String?

    package init(_ code: Code, _ message: String, hint: String? = nil) {
        self.code = code
        self.message = message
        self.hint = hint
    }

    package var description: String { hint.map { "\(message)\n  → \($0)" } ?? message }
}
