/// A phone-side failure: what step, against which device, and the BlueZ error behind it.
package struct CentralError: Error, Sendable, CustomStringConvertible {
    package var message: String
    /// The D-Bus error name when BlueZ refused (`org.bluez.Error.NotAuthorized`).
    package var dbusName: String?

    package init(_ message: String, dbusName: String? = nil) {
        self.message = message
        self.dbusName = dbusName
    }

    package var description: String { dbusName.map { "\(message) (\($0))" } ?? message }
}
