import DBus
import Testing

@Suite("D-Bus errors")
struct DBusErrorTests {
    @Test("an error reads as its D-Bus name and message")
    func description() {
        let error = DBusError(name: "org.bluez.Error.NotPermitted", message: "Write not permitted")
        #expect(error.description == "org.bluez.Error.NotPermitted: Write not permitted")
    }
}
