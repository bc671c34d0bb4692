import Testing
@testable import RigControl

/// The commands an adapter's controller has not answered yet, from monitor frames (AdapterSettleWatch's ledger).
@Suite("HCI commands not answered yet, from the monitor channel")
struct HCICommandLedgerTests {
    typealias Frames = AdvertisingWatchTests
    static let start = ContinuousClock.now

    /// An event frame: event code, parameter length, parameters.
    static func event(_ code: UInt8, index: UInt16 = 0, _ parameters: [UInt8]) -> [UInt8] {
        Frames.frame(3, index: index, [code, UInt8(parameters.count)] + parameters)
    }

    static func complete(_ opcode: UInt16, status: UInt8 = 0, index: UInt16 = 0) -> [UInt8] {
        event(0x0e, index: index, [0x01, UInt8(opcode & 0xff), UInt8(opcode >> 8), status])
    }

    static func status(_ opcode: UInt16, status: UInt8 = 0) -> [UInt8] {
        event(0x0f, [status, 0x01, UInt8(opcode & 0xff), UInt8(opcode >> 8)])
    }

    static func at(_ ms: Int) -> ContinuousClock.Instant { start + .milliseconds(ms) }

    @Test("a power-on's advertising commands, each answered (one with an error status): settled once quiet")
    func answered() {
        var ledger = HCICommandLedger(index: 0)
        ledger.add(Frames.parameters, at: Self.at(0))
        #expect(ledger.pending.map(\.opcode) == [0x2006])
        #expect(!ledger.isSettled(at: Self.at(500), quiet: .milliseconds(100)))
        ledger.add(Self.complete(0x2006, status: 0x12), at: Self.at(3))
        ledger.add(Frames.enabled, at: Self.at(4))
        ledger.add(Self.status(0x200a), at: Self.at(6))
        #expect(ledger.pending.isEmpty)
        #expect(!ledger.isSettled(at: Self.at(50), quiet: .milliseconds(100)), "quiet for only 44 ms")
        #expect(ledger.isSettled(at: Self.at(106), quiet: .milliseconds(100)))
        #expect(ledger.timedOut.isEmpty)
    }

    @Test("a command the controller never answers is given up after the kernel's timeout, and named")
    func neverAnswered() {
        var ledger = HCICommandLedger(index: 0)
        ledger.add(Frames.parameters, at: Self.at(0))
        ledger.expire(at: Self.at(2_000))
        #expect(ledger.pending.count == 1 && ledger.timedOut.isEmpty)
        ledger.expire(at: Self.at(2_200))
        #expect(ledger.pending.isEmpty && ledger.timedOut == [0x2006])
        #expect(ledger.isSettled(at: Self.at(2_200), quiet: .milliseconds(100)))
    }

    @Test("another adapter's frames, other events and short frames change nothing; the adapter's close ends all")
    func otherFrames() {
        var ledger = HCICommandLedger(index: 0)
        ledger.add(Frames.parameters, at: Self.at(0))
        ledger.add(Self.complete(0x2006, index: 1), at: Self.at(1))
        ledger.add(Self.event(0x3e, [0x01, 0x00]), at: Self.at(2))
        ledger.add([0x03, 0x00, 0x00, 0x00], at: Self.at(3))
        ledger.add(Frames.frame(3, index: 0, [0x0e]), at: Self.at(4))
        #expect(ledger.pending.map(\.opcode) == [0x2006])
        ledger.add(Frames.closed, at: Self.at(5))
        #expect(ledger.pending.isEmpty)
    }

    @Test("the note names what was never answered, and an adapter still busy")
    func note() {
        let outcome = AdapterSettleWatch.Outcome(settled: false, waited: .seconds(3), timedOut: [0x2006])
        let note = outcome.note("hci0")
        #expect(note.contains("hci0's emulated controller never answered 0x2006 after power-on"), "\(note)")
        #expect(note.contains("hci0 was still busy 3.0 seconds after power-on"), "\(note)")
        #expect(AdapterSettleWatch.Outcome(settled: true, waited: .milliseconds(120), timedOut: []).note("hci0") == "")
    }
}

@Suite("Whether a controller advertises again after a power-on, from the monitor channel")
struct HCIAdvertisingStateTests {
    typealias Frames = AdvertisingWatchTests
    typealias Events = HCICommandLedgerTests

    @Test("an accepted enable says on, an accepted disable off; a refused one changes nothing; none seen is nil")
    func advertisingState() {
        var ledger = HCICommandLedger(index: 0)
        #expect(ledger.advertising == nil)
        ledger.add(Frames.enabled, at: Events.at(0))
        #expect(ledger.advertising == nil, "asked, not answered yet")
        ledger.add(Events.complete(0x200a), at: Events.at(1))
        #expect(ledger.advertising == true)
        ledger.add(Frames.silenced, at: Events.at(2))
        ledger.add(Events.complete(0x200a, status: 0x0c), at: Events.at(3))
        #expect(ledger.advertising == true, "a refused disable leaves it advertising")
        ledger.add(Frames.silenced, at: Events.at(4))
        ledger.add(Events.complete(0x200a), at: Events.at(5))
        #expect(ledger.advertising == false)
    }

    @Test("a power-on that sets the parameters and never enables, or enables on another adapter, is not advertising")
    func notReenabled() {
        var ledger = HCICommandLedger(index: 0)
        ledger.add(Frames.parameters, at: Events.at(0))
        ledger.add(Events.complete(0x2006), at: Events.at(1))
        ledger.add(Frames.frame(2, index: 1, [0x0a, 0x20, 0x01, 0x01]), at: Events.at(2))
        ledger.add(Events.complete(0x200a, index: 1), at: Events.at(3))
        #expect(ledger.advertising == nil)
    }
}
