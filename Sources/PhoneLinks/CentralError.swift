import System

/// A phone-side failure: what step, against which device, and the BlueZ error behind it.
package struct CentralError: ExplainedError, Sendable {
    package enum Code: String, Sendable {
        /// No device advertising the RemoteTouch service was seen in time.
        case notFound
        /// The device found has no RemoteTouch characteristics.
        case notRemoteTouch
        /// BlueZ refused or failed a call (`dbusName` says how when it answered with an error).
        case bluez
        /// BlueZ answered with something other than its API says (no file descriptor, no address).
        case unexpectedReply
        /// The device's services were not resolved, or the adapter not powered, in time.
        case timeout
        /// The run was interrupted while the central waited.
        case interrupted
    }

    package var code: Code
    /// The step and what went wrong, without the D-Bus error name.
    package var message: String
    /// The D-Bus error name when BlueZ refused (`org.bluez.Error.NotAuthorized`).
    package var dbusName: String?

    package init(_ code: Code, _ message: String, dbusName: String? = nil) {
        self.code = code
        self.message = message
        self.dbusName = dbusName
    }

    /// The message, then the D-Bus error name in parentheses when BlueZ refused.
    package var what: String { dbusName.map { "\(message) (\($0))" } ?? message }
    /// No central failure carries a next step today.
    package var hint: String? { nil }
}
