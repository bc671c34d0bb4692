package import System

/// A Bonjour failure, with the D-Bus error it came from and what to do.
package typealias AvahiError = ModuleError<AvahiErrorCode>

/// The kinds of `AvahiError`.
package enum AvahiErrorCode: String, Sendable {
    /// A call to avahi-daemon over D-Bus failed, or its signals ended.
    case bus
    /// avahi-daemon answered with something other than its API says (no object path, too few values).
    case unexpectedReply
    /// avahi-daemon reported a failure to publish or browse.
    case daemonFailure
    /// Every name tried for the service collided with another's.
    case collision
    /// No service of the type was found in time.
    case notFound
    /// avahi-daemon or the service did not get ready in time.
    case timeout
    /// Cancelled while waiting.
    case interrupted
}
