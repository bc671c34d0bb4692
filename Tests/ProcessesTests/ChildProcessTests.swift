import Foundation
import Processes
import System
import Testing

/// The children live an hour unless told otherwise: in a full `swift test` the rig suites can hold this process's
/// threads for minutes, and a child that ends by itself meanwhile would turn a teardown check into a timing check.
@Suite("ChildProcess: spawn, await the exit, tear down by steps")
struct ChildProcessTests {
    @Test("a child inherits no other descriptor: a pipe another thread has open still ends when its writer closes")
    func noInheritedDescriptors() async throws {
        // A pipe opened without O_CLOEXEC, as Foundation's and others' are, while a child is spawned.
        var fds: [Int32] = [-1, -1]
        #expect(pipe(&fds) == 0)
        let (readEnd, writeEnd) = (FileDescriptor(owning: fds[0]), FileDescriptor(owning: fds[1]))
        let child = try ChildProcess("/bin/sleep", ["3600"], output: .inherit, ownProcessGroup: false)
        writeEnd.close()
        // Had the child inherited the write end, the reader would see no end of file while it runs.
        var reader = pollfd(fd: readEnd.rawValue, events: Int16(POLLIN), revents: 0)
        let ready = poll(&reader, 1, 2000)
        var byte: UInt8 = 0
        let count = ready == 1 ? read(readEnd.rawValue, &byte, 1) : -1
        readEnd.close()
        _ = await child.teardown()
        #expect(ready == 1 && count == 0, "the pipe did not end while the child ran: it holds the write end")
    }

    @Test("the exit code comes back through the async monitor, not a poll")
    func exitCode() async throws {
        let child = try ChildProcess("/bin/sh", ["-c", "exit 3"], output: .inherit, ownProcessGroup: false)
        let ended = await child.exitStatus()
        #expect(ended == .exited(3))
        #expect(ended.status == 3)
        #expect(child.poll() == 3)
        #expect(child.termination == .exited(3))
    }

    @Test("a death by signal is reported as such, and as 128 + N")
    func signalled() async throws {
        let child = try ChildProcess("/bin/sleep", ["5"], output: .inherit, ownProcessGroup: true)
        child.signal(SIGTERM)
        let ended = await child.exitStatus()
        #expect(ended == .signaled(SIGTERM))
        #expect(ended.status == 128 + SIGTERM)
        #expect(ended.description == "killed by signal \(SIGTERM)")
    }

    @Test("awaiting with a timeout returns nil while the child runs, and its end once it exits")
    func timeout() async throws {
        // A child that only ends when told to, so no timing on this machine can make the first wait see an exit.
        let child = try ChildProcess("/bin/sleep", ["3600"], output: .inherit, ownProcessGroup: false)
        #expect(await child.exitStatus(timeout: .milliseconds(50)) == nil)
        #expect(child.poll() == nil)
        child.signal(SIGTERM)
        #expect(await child.exitStatus(timeout: .seconds(30)) == .signaled(SIGTERM))
    }

    @Test("many waiters, async and blocking, all see the one exit")
    func manyWaiters() async throws {
        let child = try ChildProcess("/bin/sleep", ["0.2"], output: .inherit, ownProcessGroup: false)
        async let blocking = Task.detached { child.wait(timeout: .seconds(10)) }.value
        let results = await withTaskGroup(of: ChildProcess.Termination.self) { group in
            for _ in 0..<5 { group.addTask { await child.exitStatus() } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results == Array(repeating: .exited(0), count: 5))
        #expect(await blocking == .exited(0))
        #expect(child.wait() == 0)
    }

    @Test("teardown stops at the first signal that works: SIGINT ends sleep, no SIGKILL needed")
    func teardownPolite() async throws {
        let child = try ChildProcess("/bin/sleep", ["30"], output: .inherit, ownProcessGroup: true)
        // Ended by SIGINT: the SIGTERM and SIGKILL steps were never reached.
        let ended = await child.teardown([.signal(SIGINT), .wait(.seconds(20)), .signal(SIGTERM), .wait(.seconds(2)), .kill])
        #expect(ended == .signaled(SIGINT))
    }

    @Test("a child that ignores SIGINT and SIGTERM is escalated to SIGKILL after each wait")
    func teardownEscalates() async throws {
        // The shell reports when its traps are set, so the signals cannot arrive before them.
        let child = try ChildProcess("/bin/sh", ["-c", "trap '' INT TERM; echo ready; exec sleep 3600"],
                                     output: .standardOutput, ownProcessGroup: true)
        let ready = child.output?.availableData ?? Data()
        #expect(String(decoding: ready, as: UTF8.self).hasPrefix("ready"))
        let start = ContinuousClock.now
        let ended = await child.teardown([.signal(SIGINT), .wait(.milliseconds(300)), .signal(SIGTERM), .wait(.milliseconds(300)), .kill])
        let elapsed = ContinuousClock.now - start
        #expect(ended == .signaled(SIGKILL))
        #expect(elapsed >= .milliseconds(600))
    }

    @Test("the proof asked for: sh with `trap \"\" INT; sleep …` only dies to the closing kill")
    func trapInterrupt() async throws {
        let child = try ChildProcess("/bin/sh", ["-c", "trap \"\" INT; echo ready; sleep 3600"], output: .standardOutput,
                                     ownProcessGroup: true)
        _ = child.output?.availableData
        // No .kill given: the sequence always ends with one.
        let ended = await child.teardown([.signal(SIGINT), .wait(.milliseconds(300))])
        #expect(ended == .signaled(SIGKILL))
    }

    @Test("a child that already exited is not signalled again; teardown returns its end")
    func teardownAfterExit() async throws {
        let child = try ChildProcess("/bin/true", [], output: .inherit, ownProcessGroup: false)
        _ = await child.exitStatus()
        #expect(await child.teardown() == .exited(0))
        #expect(child.teardownBlocking() == .exited(0))
    }

    @Test("the blocking teardown, for synchronous callers, escalates the same way")
    func blockingTeardown() throws {
        let child = try ChildProcess("/bin/sh", ["-c", "trap '' TERM; echo ready; exec sleep 3600"], output: .standardOutput,
                                     ownProcessGroup: true)
        _ = child.output?.availableData
        #expect(child.teardownBlocking([.signal(SIGTERM), .wait(.milliseconds(200)), .kill]) == .signaled(SIGKILL))
    }

    @Test("a steps list without a closing kill gets one")
    func stepsEndWithKill() {
        #expect(TeardownStep.terminate.last == .kill)
        #expect(TeardownStep.interrupt == [.signal(SIGINT), .wait(.seconds(2)), .signal(SIGTERM), .wait(.seconds(2)), .kill])
    }

    @Test("output modes: joined output is captured, appending keeps what the file held")
    func outputModes() async throws {
        let joined = try ChildProcess("/bin/sh", ["-c", "echo out; echo err >&2"], output: .joined, ownProcessGroup: false)
        let text = String(decoding: joined.output?.readDataToEndOfFile() ?? Data(), as: UTF8.self)
        #expect(await joined.exitStatus() == .exited(0))
        #expect(text.split(separator: "\n").sorted() == ["err", "out"])

        let path = FileManager.default.temporaryDirectory.appendingPathComponent("hil-append-\(getpid()).log").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try "before\n".write(toFile: path, atomically: true, encoding: .utf8)
        let appending = try ChildProcess("/bin/echo", ["after"], output: .appending(path), ownProcessGroup: false)
        _ = await appending.exitStatus()
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "before\nafter\n")
    }

    @Test("a program that does not exist is a SystemError naming it, with the errno")
    func missingProgram() {
        let error = #expect(throws: SystemError.self) {
            _ = try ChildProcess("/nonexistent/hil-tool", [], output: .inherit, ownProcessGroup: false)
        }
        #expect(error?.code == .cannotStart)
        #expect(error?.errno == .noSuchFileOrDirectory)
        #expect(error?.message == "cannot start /nonexistent/hil-tool: No such file or directory")
    }

    @Test("separate output: stdout and stderr each in their own pipe; the child starts in the folder it is given")
    func separateStreams() async throws {
        let child = try ChildProcess("/bin/sh", ["-c", "pwd; echo err >&2"], workingDirectory: "/tmp", output: .separate,
                                     ownProcessGroup: false)
        let output = String(decoding: child.output?.readDataToEndOfFile() ?? Data(), as: UTF8.self)
        let errors = String(decoding: child.errorOutput?.readDataToEndOfFile() ?? Data(), as: UTF8.self)
        #expect(await child.exitStatus() == .exited(0))
        #expect(output == "/tmp\n")
        #expect(errors == "err\n")
    }

    @Test("a process that is not our child is awaited through its pidfd, zombie or not")
    func notOurChild() async throws {
        // sh starts a sleep in the background and execs into a sleep that never reaps it: a zombie to be. The
        // background sleep ends only when told to, so no timing on this machine decides the first wait.
        let parent = try ChildProcess("/bin/sh", ["-c", "sleep 3600 & echo $!; exec sleep 3600"], output: .standardOutput,
                                      ownProcessGroup: true)
        defer { parent.teardownBlocking([.kill]) }
        let line = String(decoding: parent.output?.availableData ?? Data(), as: UTF8.self)
        let pid = try #require(Int32(line.trimmingCharacters(in: .whitespacesAndNewlines)))
        let grandchild = RunningProcess(pid: pid)
        #expect(grandchild.isAlive)
        #expect(await grandchild.exited(within: .milliseconds(20)) == false)
        kill(pid, SIGTERM)
        #expect(await grandchild.exited(within: .seconds(10)))
        #expect(!grandchild.isAlive)
        #expect(RunningProcess.isZombie(pid))
    }

    @Test("a foreign process that ignores SIGTERM is killed by the teardown's closing step")
    func foreignTeardown() async throws {
        // The subshell says when its trap is set; its pid comes from the parent. Both lines, in either order.
        let parent = try ChildProcess("/bin/sh", ["-c", "(trap '' TERM; echo trapped; exec sleep 3600) & echo $!; exec sleep 3600"],
                                      output: .standardOutput, ownProcessGroup: true)
        defer { parent.teardownBlocking([.kill]) }
        var lines: [String] = []
        while lines.count < 2, let data = parent.output?.availableData, !data.isEmpty {
            lines += String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
        }
        #expect(lines.contains("trapped"))
        let process = RunningProcess(pid: try #require(lines.compactMap { Int32($0) }.first))
        let start = ContinuousClock.now
        await process.teardown([.signal(SIGTERM), .wait(.milliseconds(300))])
        #expect(!process.isAlive)
        #expect(ContinuousClock.now - start >= .milliseconds(300))
    }
}
