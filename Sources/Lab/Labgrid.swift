import Foundation
import Processes

/// labgrid's own client, `labgrid-client` (labgrid 26.0.1, pinned in Rigs/labgrid/requirements.txt), for one
/// coordinator: reservations, locks, places and their resources. Each call is one run of the CLI; its errors carry
/// the command and what it printed.
package struct Labgrid: Sendable {
    /// The labgrid-client executable.
    package var client: String
    /// `HOST:PORT` of the coordinator.
    package var coordinator: String

    /// Where labgrid-client is looked for when not given: Rigs/labgrid/venv.sh's virtual environment in the
    /// current folder (the project's checkout), then PATH.
    package static let venvClient = ".venv-labgrid/bin/labgrid-client"

    package init(client: String?, coordinator: String) throws(LabError) {
        let found = client.map { ChildProcess.resolve($0) } ?? ChildProcess.resolve(Self.venvClient) ?? ChildProcess.resolve("labgrid-client")
        guard let found else {
            throw LabError(
                .missingTool, "labgrid-client not found (\(client ?? "\(Self.venvClient), then PATH"))",
                hint: "run `bash Rigs/labgrid/venv.sh` in the project's folder (it installs labgrid 26.0.1 into .venv-labgrid), or pass --labgrid-client PATH")
        }
        self.client = found
        self.coordinator = coordinator
    }

    /// Runs `labgrid-client -x COORDINATOR [-p place] arguments…`.
    package func call(_ arguments: [String], place: String? = nil, timeout: Duration = .seconds(60)) async throws(LabError) -> LabProcess {
        let full = ["-x", coordinator] + (place.map { ["-p", $0] } ?? []) + arguments
        return try await LabProcess.run(client, full, timeout: timeout)
    }

    /// Like `call`, but a non-zero exit is an error naming the command and its last lines.
    @discardableResult
    package func must(_ arguments: [String], place: String? = nil, timeout: Duration = .seconds(60)) async throws(LabError) -> String {
        let result = try await call(arguments, place: place, timeout: timeout)
        guard result.status == 0 else {
            let command = (["labgrid-client", "-x", coordinator] + (place.map { ["-p", $0] } ?? []) + arguments).joined(separator: " ")
            let why = result.timedOut ? "did not answer within \(timeout)" : "exited with status \(result.status)"
            throw LabError(.labgrid, "`\(command)` \(why):\n\(result.tail())",
                           hint: "is the coordinator at \(coordinator) running? `hil lab status --coordinator \(coordinator)` lists its places")
        }
        return result.output
    }

    /// Creates a reservation for one place whose tags include `tags`; returns its token.
    package func reserve(tags: [String]) async throws(LabError) -> String {
        let output = try await must(["reserve", "--shell"] + tags)
        guard let token = Self.token(in: output) else {
            throw LabError(.labgrid, "labgrid-client reserve printed no token:\n\(output)")
        }
        return token
    }

    /// The token in `reserve --shell`'s output (`export LG_TOKEN=QTGKT8VFRG`).
    static func token(in output: String) -> String? {
        for line in output.split(separator: "\n") where line.hasPrefix("export LG_TOKEN=") {
            let token = line.dropFirst("export LG_TOKEN=".count).trimmingCharacters(in: .whitespaces)
            if !token.isEmpty { return token }
        }
        return nil
    }

    /// Waits until the reservation is allocated (labgrid-client refreshes it meanwhile); false at `timeout`.
    package func waitAllocated(_ token: String, timeout: Duration) async throws(LabError) -> Bool {
        let result = try await call(["wait", token], timeout: timeout)
        if result.timedOut { return false }
        guard result.status == 0 else {
            throw LabError(
                .labgrid, "labgrid-client wait \(token) exited with status \(result.status):\n\(result.tail())")
        }
        return true
    }

    /// Locks the place a reservation was allocated; returns the place's name.
    package func lock(reservation token: String) async throws(LabError) -> String {
        let output = try await must(["lock"], place: "+" + token)
        guard let place = Self.lockedPlace(in: output) else {
            throw LabError(.labgrid, "labgrid-client lock printed no place name:\n\(output)")
        }
        return place
    }

    /// The place in lock's output (`acquired place box1`).
    static func lockedPlace(in output: String) -> String? {
        output.split(separator: "\n").first { $0.hasPrefix("acquired place ") }
            .map { String($0.dropFirst("acquired place ".count)).trimmingCharacters(in: .whitespaces) }
    }

    /// The place's resources as `env` writes them: the box's address and rig.
    package func box(_ place: String) async throws(LabError) -> LabBox {
        let output = try await must(["env"], place: place)
        return try LabBox(place: place, env: output)
    }

    package func places() async throws(LabError) -> [LabPlace] {
        LabPlace.parse(try await must(["-v", "places"]))
    }

    /// Records a box's last health check in its place's comment (shown by `hil lab status`).
    package func setComment(_ place: String, _ text: String) async {
        _ = try? await call(["set-comment", text], place: place)
    }

    /// Releases a place held by us; nil when done, else why not.
    package func unlock(_ place: String) async -> String? {
        do {
            let result = try await call(["unlock"], place: place)
            return result.status == 0 ? nil : result.tail(2)
        } catch {
            return error.description
        }
    }

    /// Cancels a reservation; nil when done, else why not.
    package func cancel(_ token: String) async -> String? {
        do {
            let result = try await call(["cancel-reservation", token])
            return result.status == 0 ? nil : result.tail(2)
        } catch {
            return error.description
        }
    }
}
