/// A phone-side failure: what step, against which device, and the BlueZ error behind it.
public struct CentralError: Error, Sendable, CustomStringConvertible {
    public var message: String
    /// The D-Bus error name when BlueZ refused (`org.bluez.Error.NotAuthorized`).
    public var dbusName: String?

    public init(_ message: String, dbusName: String? = nil) {
        self.message = message
        self.dbusName = dbusName
    }

    public var description: String { dbusName.map { "\(message) (\($0))" } ?? message }
}
