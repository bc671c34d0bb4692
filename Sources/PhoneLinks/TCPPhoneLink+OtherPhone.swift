import Foundation
package import GestureScript
import NetSocket
import RemoteTouchProtocol

extension TCPPhoneLink {
    /// Another device's session (`otherPhone`): a TCP connection from the phone's host or the attacker's to the
    /// computer's tcp port or the udp transport's control port, the code entered (nil: none), the commands sent, their
    /// answers awaited; then it closes. Returns what the computer answered.
    package func otherPhone(_ phone: OtherPhone, code: String?) async throws -> String {
        let netns: String?
        let from: String
        switch phone.from {
        case .phone:
            (netns, from) = (settings.phoneNetns, "the phone's host")
        case .attacker:
            guard let attacker = settings.attacker else {
                throw LinkError(.hosts, "otherPhone from the attacker needs the rig's third host (its attacker network namespace), and this rig has none: run in the vm rig")
            }
            (netns, from) = (attacker.netns, "the attacker's host \(attacker.address)")
        }
        let port = phone.transport == .tcp ? NetworkService.port : MovementService.controlPort
        let address = settings.computerAddress
        let timeout = Duration.milliseconds(Int64(2000 * settings.latencyScale))
        let socket: TCPSocket = try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                continuation.resume(with: Result { () throws(NetSocketError) in
                    try TCPSocket.connect(to: address, port: port, netns: netns, timeout: timeout)
                })
            }
            thread.name = "other-phone"
            thread.start()
        }
        let connection = TCPPhoneConnection(socket: socket, pingInterval: .milliseconds(500), deadAfter: timeout) { _ in }
        connection.start()
        defer { connection.close(reason: "the other phone is done") }
        var said = ["another phone from \(from) on \(phone.transport.rawValue) port \(port)"]
        if let code {
            let (status, refusals) = await connection.pairing(.pair(code: code), timeout: timeout)
            said.append("entered \(code): " + (refusals.isEmpty ? "accepted" : "refused (\(refusals.map(\.code).joined(separator: ", ")))")
                + "; the computer reports \(status?.state.rawValue ?? "nothing")")
        }
        let errorsBefore = connection.errors.count
        for command in phone.commands { try await connection.enqueue(.command(command)) }
        if !phone.commands.isEmpty {
            // Each refused message is answered with an error; a ping's pong after them says the computer read them all.
            let pongs = connection.roundTrips.count
            try await connection.enqueue(.ping)
            _ = try? await connection.changes.upTo(timeout) { connection.roundTrips.count > pongs ? () : nil }
            let refusals = connection.errors.dropFirst(errorsBefore).map(\.code)
            said.append("sent \(phone.commands.count) command(s): \(refusals.isEmpty ? "none refused" : "refused: " + refusals.joined(separator: ", "))")
        }
        return said.joined(separator: "; ")
    }
}
