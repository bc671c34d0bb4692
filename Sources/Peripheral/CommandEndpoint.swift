/// One way commands reach the computer: the BLE GATT application today; a TCP listener, a HID-report
/// characteristic or a UDP socket next. An endpoint carries bytes in and status out; everything else — decoding,
/// the paired check, mapping, injection, pairing and lockout, held-key release, the status timer — is the
/// `ComputerHost`'s, shared by every endpoint. A new transport adds an endpoint, not a processor.
package protocol CommandEndpoint: Sendable {
    /// The transport's name in logs and in the ready file: `ble` (which carries hid too), `tcp` or `udp`.
    var name: String { get }
    /// Starts serving: registers, listens, advertises. Hands each write to `host.command(_:from:)`, each pairing
    /// read and write to `host.pairingRead(by:)` / `host.pairingWrite(_:by:)`, calls `host.sessionEnded(_:reason:)`
    /// when a session goes, and `host.ready(_:)` once it serves (again).
    func start(_ host: ComputerHost) async throws(PeripheralError)
    /// Sends a status to every subscribed session; must never block (the command path calls it for each refusal).
    func deliver(status: [UInt8])
    /// Stops serving and closes every session.
    func stop() async
}
