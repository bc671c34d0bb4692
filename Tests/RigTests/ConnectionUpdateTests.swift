import RigControl
import Testing

@Suite("The phone's connection update: its link's handle from hcitool con")
struct ConnectionUpdateTests {
    // hcitool con in the vm guest, the phone's adapter with its link to the computer (and a classic link beside it).
    static let listing = """
        Connections:
        \t> ACL 00:AA:01:00:00:07 handle 11 state 1 lm PERIPHERAL
        \t< LE 00:AA:01:00:00:42 handle 3585 state 1 lm CENTRAL
        """

    @Test("the LE link to the address, whatever its case; none for another address or a classic link")
    func handle() {
        #expect(ConnectionUpdate.handle(in: Self.listing, of: "00:AA:01:00:00:42") == 3585)
        #expect(ConnectionUpdate.handle(in: Self.listing, of: "00:aa:01:00:00:42") == 3585)
        #expect(ConnectionUpdate.handle(in: Self.listing, of: "00:AA:01:00:00:07") == nil)
        #expect(ConnectionUpdate.handle(in: "Connections:\n", of: "00:AA:01:00:00:42") == nil)
    }
}
