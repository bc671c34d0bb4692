import Testing
@testable import RigControl

/// The monitor frames of one failed run's link drop (HCI trace of "the link drops in the middle of a drag",
/// repeat 6 of a 10-repeat suite run), reduced to what the watch reads.
@Suite("Whether an emulated controller was left advertising when its adapter went off")
struct AdvertisingWatchTests {
    /// `struct hci_mon_hdr` then the payload.
    static func frame(_ opcode: UInt16, index: UInt16, _ payload: [UInt8] = []) -> [UInt8] {
        let length = UInt16(payload.count)
        return [UInt8(opcode & 0xff), UInt8(opcode >> 8), UInt8(index & 0xff), UInt8(index >> 8),
                UInt8(length & 0xff), UInt8(length >> 8)] + payload
    }

    static func command(_ opcode: UInt16, index: UInt16 = 0, _ parameters: [UInt8]) -> [UInt8] {
        frame(2, index: index, [UInt8(opcode & 0xff), UInt8(opcode >> 8), UInt8(parameters.count)] + parameters)
    }

    static let silenced = command(0x200a, [0x00])
    static let parameters = command(0x2006, [0x00, 0x08, 0x00, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x07, 0x00])
    static let enabled = command(0x200a, [0x01])
    static let disconnect = command(0x0406, [0x2a, 0x00, 0x13])
    static let closed = frame(9, index: 0)

    @Test("the rig's silence, then the kernel's enable 25 ms later, then the close: left advertising")
    func kernelTurnedItOnAgain() {
        let frames = [Self.silenced, Self.parameters, Self.enabled, Self.disconnect, Self.closed]
        #expect(AdvertisingWatch.advertisingLeftOn(frames, index: 0) == true)
        #expect(AdvertisingWatch.closed(frames, index: 0))
    }

    @Test("the rig's silence, then the close: silent")
    func silenceHeld() {
        let frames = [Self.silenced, Self.disconnect, Self.closed]
        #expect(AdvertisingWatch.advertisingLeftOn(frames, index: 0) == false)
    }

    @Test("what is sent after the close (the kernel's late Set Advertising Parameters) does not count")
    func afterTheClose() {
        let frames = [Self.silenced, Self.closed, Self.parameters, Self.enabled]
        #expect(AdvertisingWatch.advertisingLeftOn(frames, index: 0) == false)
    }

    @Test("another adapter's commands and close are not this adapter's")
    func otherAdapter() {
        let frames = [Self.silenced, Self.command(0x200a, index: 1, [0x01]), Self.frame(9, index: 1)]
        #expect(AdvertisingWatch.advertisingLeftOn(frames, index: 0) == false)
        #expect(!AdvertisingWatch.closed(frames, index: 0))
    }

    @Test("LE Set Extended Advertising Enable counts too; nothing seen is nil; short frames are skipped")
    func extendedAndNothing() {
        #expect(AdvertisingWatch.advertisingLeftOn([Self.silenced, Self.command(0x2039, [0x01, 0x01, 0x00])], index: 0) == true)
        #expect(AdvertisingWatch.advertisingLeftOn([Self.disconnect, Self.closed], index: 0) == nil)
        #expect(AdvertisingWatch.advertisingLeftOn([[0x02, 0x00], Self.frame(2, index: 0, [0x0a])], index: 0) == nil)
    }
}
