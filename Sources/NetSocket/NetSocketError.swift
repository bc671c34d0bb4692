package import System

/// A socket failure: what was being done, errno's text, and what to try.
package typealias NetSocketError = ModuleError<NetSocketErrorCode>

/// The kinds of `NetSocketError`.
package enum NetSocketErrorCode: String, Sendable {
    /// A socket could not be created.
    case create
    /// A port could not be bound or listened on (EADDRINUSE: another program has it).
    case bind
    /// A connection could not be made (ECONNREFUSED: nothing listens there).
    case connect
    /// A host is not an IPv4 address, or a unix socket's path does not fit `sockaddr_un`.
    case invalidAddress
    /// A network namespace could not be opened or entered.
    case namespace
}
