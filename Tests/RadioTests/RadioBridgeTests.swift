import Foundation
import Radio
import Synchronization
import Testing

extension LoopbackBridge {
    /// Stops the bridge and returns what it returned or threw.
    func stopped() throws -> Result<RadioBridgeCore, RadioError> {
        try #require(try stop(within: 5), "the bridge did not stop within 5 s of its stop pipe")
    }
}

@Suite("The bridge over real file descriptors: poll, the event timer, stopping")
struct RadioBridgeTests {

    /// When the packet goes is the virtual-clock suite's to check (RadioBridgeLoopTests); the real-time figures are
    /// `hil radio --self-test`'s. Here: with nothing else coming, only the poll's timeout can let the packet go.
    @Test("over real files, a held ACL packet is let go by the poll's timeout at its event, with nothing else arriving")
    func heldUntilTheEvent() throws {
        let harness = try LoopbackBridge(RadioModel(timing: .connectionEvents(packetsPerEvent: 6, buffers: 12)))
        try harness.controllerEnd.writeAll(Events.connectionComplete(handle: 0x40, interval: 6).bytes)  // 7.5 ms
        #expect(LoopbackBridge.read(harness.hostEnd) == Events.connectionComplete(handle: 0x40, interval: 6).bytes)
        try harness.hostEnd.writeAll(Events.acl(handle: 0x40, marker: 7).bytes)
        #expect(LoopbackBridge.read(harness.controllerEnd) == Events.acl(handle: 0x40, marker: 7).bytes)
        let statistics = try harness.stopped().get().scheduler.statistics
        #expect(statistics.released == 1 && statistics.passedAtOnce == 0, "\(statistics)")
        #expect(harness.notes.withLock { $0 } == ["link 0x0040 connected, interval 7.5 ms (6 × 1.25 ms)"])
    }

    @Test("in the immediate model packets and events pass at once, unchanged")
    func immediate() throws {
        let harness = try LoopbackBridge(RadioModel(timing: .immediate))
        try harness.controllerEnd.writeAll(Events.connectionComplete(handle: 0x40, interval: 16).bytes)
        #expect(LoopbackBridge.read(harness.hostEnd) != nil)
        try harness.controllerEnd.writeAll(Events.leReadBufferSizeComplete(count: 1).bytes)
        #expect(LoopbackBridge.read(harness.hostEnd) == Events.leReadBufferSizeComplete(count: 1).bytes)
        try harness.hostEnd.writeAll(Events.acl(handle: 0x40, marker: 3).bytes)
        #expect(LoopbackBridge.read(harness.controllerEnd) == Events.acl(handle: 0x40, marker: 3).bytes)
        let core = try harness.stopped().get()
        #expect(core.scheduler.statistics.passedAtOnce == 1)
    }

    @Test("btvirt's side closing ends the bridge with an error that names it")
    func controllerCloses() throws {
        let harness = try LoopbackBridge(RadioModel(timing: .immediate))
        harness.controllerEnd.close()
        let outcome = try #require(harness.outcome(within: 5), "the bridge did not end within 5 s of btvirt's side closing")
        #expect(throws: RadioError.self) { try outcome.get() }
        if case .failure(let error) = outcome {
            #expect(error.what == "btvirt's socket (loopback) closed")
        }
    }

    @Test("creating a controller: the vendor request goes out, the kernel's answer gives the index")
    func createController() throws {
        let (ours, kernel) = try LoopbackBridge.pair(packets: true)
        try kernel.writeAll([0xff, 0x00, 0x03, 0x00])
        #expect(try VirtualHCI.create(on: ours, path: "/dev/vhci") == 3)
        #expect(LoopbackBridge.read(kernel) == [0xff, 0x00])
        #expect(VirtualHCI.index(fromReply: [0xff, 0x01, 0x00, 0x00]) == nil)
        try kernel.writeAll([0x04, 0x0e])
        #expect { try VirtualHCI.create(on: ours, path: "/dev/vhci") } throws: { error in
            "\(error)".contains("/dev/vhci answered the request to create a controller with [04 0e]")
        }
    }
}
