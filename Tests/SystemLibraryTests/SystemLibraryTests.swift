import CDBus
import CEvdev
import InputCodes
import Testing

@Suite("C libraries behind CDBus and CEvdev")
struct SystemLibraryTests {
    @Test("every code in our evdev table has libevdev's name and number")
    func evdevNames() throws {
        for code in EventCode.allKnown {
            let name = try #require(code.name)
            let libevdevName = libevdev_event_code_get_name(UInt32(code.type.rawValue), UInt32(code.code))
            #expect(libevdevName.map { String(cString: $0) } == name, "\(name)")
            #expect(libevdev_event_code_from_name(UInt32(code.type.rawValue), name) == Int32(code.code), "\(name)")
        }
    }

    @Test("event type numbers match the kernel headers")
    func eventTypes() {
        #expect(EventType.syn.rawValue == UInt16(EV_SYN))
        #expect(EventType.key.rawValue == UInt16(EV_KEY))
        #expect(EventType.rel.rawValue == UInt16(EV_REL))
        #expect(EventType.msc.rawValue == UInt16(EV_MSC))
        #expect(EventCode.relWheelHiRes.code == UInt16(REL_WHEEL_HI_RES))
    }

    @Test("the uinput header is there for the peripheral")
    func uinputHeader() {
        #expect(UINPUT_MAX_NAME_SIZE == 80)
    }

    @Test("libdbus is linked and new enough for BlueZ 5.66 (1.10 or later)")
    func dbusVersion() {
        var major: Int32 = 0
        var minor: Int32 = 0
        var micro: Int32 = 0
        dbus_get_version(&major, &minor, &micro)
        #expect(major > 1 || (major == 1 && minor >= 10), "libdbus \(major).\(minor).\(micro)")
        #expect(dbus_signature_validate("a{oa{sa{sv}}}", nil) != 0)
    }
}
