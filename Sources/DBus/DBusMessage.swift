/// A D-Bus message as plain Swift values. Messages cross threads in this form; the C `DBusMessage` lives
/// only on the connection's thread.
public struct DBusMessage: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        case methodCall
        case methodReturn
        case error
        case signal
    }

    public var kind: Kind
    public var path: String?
    public var interface: String?
    public var member: String?
    public var sender: String?
    public var destination: String?
    public var errorName: String?
    public var serial: UInt32
    public var replySerial: UInt32
    public var noReplyExpected: Bool
    public var body: [DBusValue]

    public init(kind: Kind, path: String? = nil, interface: String? = nil, member: String? = nil,
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
    public var signature: String { body.map(\.signature).joined() }
}
