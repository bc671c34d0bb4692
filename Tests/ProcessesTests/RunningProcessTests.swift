import Foundation
import Processes
import Testing

@Suite("RunningProcess: a process that is not our child")
struct RunningProcessTests {
    @Test("a live process is not a zombie; a pid that does not exist is neither alive nor a zombie")
    func processStates() {
        #expect(!RunningProcess.isZombie(getpid()))
        #expect(RunningProcess.alive(getpid()))
        #expect(!RunningProcess.alive(Int32.max))
        #expect(!RunningProcess.isZombie(Int32.max))
    }

    @Test("a child that exited is not alive, whether or not it was reaped yet (kill(pid, 0) alone says it is)")
    func zombie() async throws {
        let child = try ChildProcess("/bin/true", [], output: .inherit, ownProcessGroup: false)
        let pid = child.pid
        // The monitor reaps it as soon as it exits: it may be a zombie for a moment or gone; either way, not alive.
        #expect(await RunningProcess(pid: pid).exited(within: .seconds(5)))
        #expect(!RunningProcess.alive(pid))
        _ = await child.exitStatus()
    }
}
