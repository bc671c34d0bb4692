package import DBus
import RemoteTouchProtocol

/// How the TCP endpoint serves (`hil peripheral --transport tcp`): seeds/ipad-trackpad-design.md's port and
/// Bonjour type, and this project's limits.
package struct TCPSettings: Sendable {
    package static let defaultPort = NetworkService.port
    package static let serviceType = NetworkService.type
    package static let protocolVersion = NetworkService.protocolVersion

    /// The transport's name: `tcp`, or `udp` (a control connection with UDP movement beside it).
    package var name = "tcp"
    package var port = TCPSettings.defaultPort
    /// Also take movement packets on this UDP port (the udp transport); nil: none.
    package var udpPort: UInt16?
    /// Listen in this network namespace (`ip netns`), as the rig's computer host; nil for the process's own.
    package var netns: String?
    /// The bus avahi-daemon is on; nil: do not publish over Bonjour.
    package var avahiBus: DBusConnection.Bus? = .system
    /// The Bonjour instance name; nil: "RemoteTouch on <host name>".
    package var serviceName: String?
    /// A session from which nothing (not even a ping) arrived for this long has stalled: what it held is released.
    package var stallTimeout: Duration = .seconds(5)
    /// udp: how long a movement packet whose buttons byte announces a press waits for the control connection's
    /// (`UDPMovement.awaitPress`).
    package var pressWait: Duration = .milliseconds(50)

    package init() {}

    /// The Bonjour instance name when none is given: "RemoteTouch on " and the first label of this machine's host
    /// name (gethostname). It is a label for people: the SRV record's target is avahi-daemon's own host name, which
    /// may differ (docs/protocol.md, "Finding the computer").
    package static func defaultServiceName(hostName: String) -> String {
        "RemoteTouch on " + (hostName.split(separator: ".").first.map(String.init) ?? "Linux")
    }

    /// The udp transport's: control on 8889, movement on 8888 (the seed's example ports), no Bonjour (the seed's
    /// phone is given the computer's address).
    package static func udp() -> TCPSettings {
        var settings = TCPSettings()
        settings.name = "udp"
        settings.port = MovementService.controlPort
        settings.udpPort = MovementService.udpPort
        settings.avahiBus = nil
        return settings
    }
}
