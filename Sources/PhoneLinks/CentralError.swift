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

extension CentralError {
    /// Waits `interval` between two polls of `what`; a cancelled task (an interrupted run) ends the wait with this
    /// error at once, where swallowing the cancellation would poll without pause until the deadline.
    package static func pause(_ interval: Duration, _ what: String) async throws(CentralError) {
        do {
            try await Task.sleep(for: interval)
        } catch {
            throw CentralError("\(what): cancelled (the run was interrupted)")
        }
    }
}
