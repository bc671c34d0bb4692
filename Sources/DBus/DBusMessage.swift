/// A D-Bus message as plain Swift values. Messages cross threads in this form; the C `DBusMessage` lives
/// only on the connection's thread.
package struct DBusMessage: Sendable, Hashable {
    package enum Kind: Sendable, Hashable {
        case methodCall
        case methodReturn
        case error
        case signal
    }

    package var kind: Kind
    package var path: String?
    package var interface: String?
    package var member: String?
    package var sender: String?
    package var destination: String?
    package var errorName: String?
    package var serial: UInt32
    package var replySerial: UInt32
    package var noReplyExpected: Bool
    package var body: [DBusValue]

    package init(kind: Kind, path: String? = nil, interface: String? = nil, member: String? = nil,
                sender: String? = nil, destination: String? = nil, errorName: String? = nil, serial: UInt32 = 0,
                replySerial: UInt32 = 0, noReplyExpected: Bool = false, body: [DBusValue] = [])
    {
        self.kind = kind
        self.path = path
        self.interface = interface
        self.member = member
        self.sender = sender
        self.destination = destination
        self.errorName = errorName
        self.serial = serial
        self.replySerial = replySerial
        self.noReplyExpected = noReplyExpected
        self.body = body
    }

    /// The body's signature: `sa{sv}as`.
    package var signature: String { body.map(\.signature).joined() }
}
