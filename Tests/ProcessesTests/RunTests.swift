import Foundation
import Processes
import System
import Testing

/// `ChildProcess.run`: the one way to run a command for its output. The timeouts are generous against the commands
/// (a `sleep 600` stopped after 1 s), and elapsed times are checked against bounds far from both (300 s), so a busy
/// machine does not decide a result: under a guest at full speed on both cores a test waits many seconds for a thread.
@Suite("ChildProcess.run: run a command to its end and collect what it printed")
struct RunTests {
    @Test("standard output and standard error are collected apart")
    func bothStreams() async throws {
        let run = try await ChildProcess.run("/bin/sh", arguments: ["-c", "echo out; echo err >&2; echo more"], timeout: .seconds(30))
        #expect(run.standardOutput == "out\nmore\n")
        #expect(run.standardError == "err\n")
        #expect(run.termination == .exited(0))
        #expect(run.succeeded)
        #expect(run.command == "sh -c echo out; echo err >&2; echo more")
        #expect(run.text == "out\nmore\nerr")
    }

    @Test("a non-zero exit is reported as the result, not thrown")
    func nonZeroExit() async throws {
        let run = try await ChildProcess.run("/bin/sh", arguments: ["-c", "echo failing >&2; exit 3"], timeout: .seconds(30))
        #expect(run.termination == .exited(3))
        #expect(run.status == 3)
        #expect(!run.succeeded)
        #expect(run.standardError == "failing\n")
    }

    @Test("a `sleep 600` is stopped at its timeout, and the error names the command and the timeout")
    func timesOut() async throws {
        let start = ContinuousClock.now
        let error = await #expect(throws: SystemError.self) {
            _ = try await ChildProcess.run("/bin/sleep", arguments: ["600"], timeout: .seconds(1))
        }
        let elapsed = ContinuousClock.now - start
        #expect(elapsed < .seconds(300), "run returned after \(elapsed), not soon after its 1 s timeout")
        #expect(error?.code == .timedOut)
        #expect(error?.what.contains("`sleep 600`") == true, "\(String(describing: error))")
        #expect(error?.what.contains("1.0 seconds") == true, "\(String(describing: error))")
        #expect(error?.what.contains("killed by signal \(SIGTERM)") == true, "\(String(describing: error))")
    }

    @Test("at the timeout the child's whole process group is stopped, not the child alone")
    func killsProcessGroup() async throws {
        // The shell starts a sleep in the background (same process group), prints its pid, then waits in a second one.
        let error = await #expect(throws: SystemError.self) {
            _ = try await ChildProcess.run("/bin/sh", arguments: ["-c", "sleep 600 & echo $!; exec sleep 600"], timeout: .seconds(1))
        }
        let printed = try #require(error?.details, "the timeout's error carries what the command printed")
        let pid = try #require(Int32(printed.trimmingCharacters(in: .whitespacesAndNewlines)), "not a pid: \(printed)")
        #expect(await RunningProcess(pid: pid).exited(within: .seconds(60)), "the background sleep \(pid) outlived the teardown")
    }

    @Test("the blocking twin collects and times out the same way")
    func blocking() throws {
        let run = try ChildProcess.runBlocking("/bin/sh", arguments: ["-c", "echo out; echo err >&2; exit 2"], timeout: .seconds(30))
        #expect(run.standardOutput == "out\n" && run.standardError == "err\n" && run.status == 2)
        let start = ContinuousClock.now
        let error = #expect(throws: SystemError.self) {
            _ = try ChildProcess.runBlocking("/bin/sleep", arguments: ["600"], timeout: .seconds(1))
        }
        #expect(error?.code == .timedOut)
        #expect(ContinuousClock.now - start < .seconds(300))
    }

    @Test("joined: both streams in one, in the order written; input reaches standard input; a name is found on PATH")
    func joinedInputAndPath() async throws {
        let joined = try await ChildProcess.run("sh", arguments: ["-c", "echo 1; echo 2 >&2; echo 3"], errors: .joined, timeout: .seconds(30))
        #expect(joined.standardOutput == "1\n2\n3\n")
        #expect(joined.standardError.isEmpty)
        let echoed = try await ChildProcess.run("/bin/cat", input: Array("to the child\n".utf8), timeout: .seconds(30))
        #expect(echoed.standardOutput == "to the child\n")
        let folder = try await ChildProcess.run("/bin/pwd", workingDirectory: "/tmp", timeout: .seconds(30))
        #expect(folder.standardOutput == "/tmp\n")
    }

    @Test("a program that cannot be started is a .cannotStart error naming it")
    func cannotStart() async {
        let missing = await #expect(throws: SystemError.self) {
            _ = try await ChildProcess.run("/nonexistent/hil-tool", timeout: .seconds(30))
        }
        #expect(missing?.code == .cannotStart)
        #expect(missing?.description.hasPrefix("cannot start /nonexistent/hil-tool: No such file or directory") == true)
        let notOnPath = await #expect(throws: SystemError.self) {
            _ = try await ChildProcess.run("hil-no-such-tool", timeout: .seconds(30))
        }
        #expect(notOnPath?.hint?.contains("no hil-no-such-tool on PATH") == true)
        let notExecutable = await #expect(throws: SystemError.self) {
            _ = try await ChildProcess.run("/etc/passwd", timeout: .seconds(30))
        }
        #expect(notExecutable?.errno == .permissionDenied)
    }

    @Test("more output than the limit is an error; the command still ran to its end without stalling")
    func outputLimit() async throws {
        // 200 KB: more than a pipe holds, so a reader that stopped reading would stall the command.
        let error = await #expect(throws: SystemError.self) {
            _ = try await ChildProcess.run("/bin/sh", arguments: ["-c", "head -c 200000 /dev/zero; echo done >&2"], output: 1000,
                                           timeout: .seconds(30))
        }
        #expect(error?.code == .outputLimitExceeded)
        #expect(error?.what.contains("more than 1000 bytes") == true)
        #expect(error?.what.contains("exited with status 0") == true)
        let within = try await ChildProcess.run("/bin/sh", arguments: ["-c", "head -c 200000 /dev/zero"], timeout: .seconds(30))
        #expect(within.standardOutput.utf8.count == 200_000)
    }

    @Test("a process the command left behind holding its output does not hold up the result")
    func leftBehind() async throws {
        // The background sleep inherits the pipe and keeps it open after the shell has exited (the hang that
        // Foundation's waitUntilExit had in the vm guest). A result that waited for the pipe to close would come
        // after the sleep's end or not at all (the timeout throws): the sleep still running when the result is
        // here proves it did not wait, however busy the machine (a wall-clock bound failed in CI under a guest).
        let run = try await ChildProcess.run("/bin/sh", arguments: ["-c", "sleep 600 & echo $!"], timeout: .seconds(300))
        #expect(run.succeeded)
        let pid = try #require(Int32(run.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)))
        let sleeper = RunningProcess(pid: pid)
        #expect(sleeper.isAlive, "the result came after the command's background sleep had ended")
        await sleeper.teardown([.kill])
    }
}
