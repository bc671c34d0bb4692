import Foundation
import Processes

/// Builds each fault into the copy of the tree (`SourceTree`): the patch applied (`git apply`), `hil` built in the
/// runner's configuration, the binary kept, the patch taken back out (`git apply -R`). The copy's own `.build` makes
/// each build after the first incremental.
package struct MutantBuilder: Sendable {
    package let tree: SourceTree
    /// `release` or `debug`.
    package let configuration: String
    /// Where each mutant's `hil` goes: `<bin>/<fault id>/hil`.
    package let bin: String
    /// How long one build may take.
    package var timeout: Duration = .seconds(1800)

    package init(tree: SourceTree, configuration: String, bin: String) {
        self.tree = tree
        self.configuration = configuration
        self.bin = bin
    }

    /// The unchanged tree's `hil`: the control every mutant is measured against (its build also warms the copy).
    /// - Throws: `MutationError` `.build` with the compiler's last lines.
    package func buildControl() async throws(MutationError) -> String {
        switch await build(as: "control") {
        case .success(let path): return path
        case .failure(let why): throw MutationError(.build, "the unchanged tree in \(tree.path) does not build: \(why)")
        }
    }

    /// Applies `fault`, builds, keeps the binary and takes the patch back out; the binary, or why there is none (also
    /// kept, as `<bin>/<fault>/broken.txt`, for `built`).
    package func build(_ fault: Fault) async -> Result<String, BuildFailure> {
        let result = await apply(fault)
        let note = bin + "/" + fault.id + "/broken.txt"
        try? FileManager.default.removeItem(atPath: note)
        if case .failure(let why) = result {
            try? FileManager.default.removeItem(atPath: bin + "/" + fault.id + "/hil")
            try? FileManager.default.createDirectory(atPath: bin + "/" + fault.id, withIntermediateDirectories: true)
            try? why.description.write(toFile: note, atomically: true, encoding: .utf8)
        }
        return result
    }

    /// What an earlier `build` left for `fault` in `bin`: its binary, why it has none, or nil (never built).
    package static func built(_ fault: Fault, in bin: String) -> Result<String, BuildFailure>? {
        let folder = bin + "/" + fault.id
        if let why = try? String(contentsOfFile: folder + "/broken.txt", encoding: .utf8) { return .failure(BuildFailure(why)) }
        return FileManager.default.isExecutableFile(atPath: folder + "/hil") ? .success(folder + "/hil") : nil
    }

    private func apply(_ fault: Fault) async -> Result<String, BuildFailure> {
        let patch = URL(fileURLWithPath: fault.path).standardizedFileURL.path
        if let why = await git(["apply", "--check", patch]) {
            return .failure(BuildFailure("the patch does not apply to the tree: \(why)"))
        }
        if let why = await git(["apply", patch]) { return .failure(BuildFailure("git apply failed: \(why)")) }
        let built = await build(as: fault.id)
        if let why = await git(["apply", "-R", patch]) {
            return .failure(BuildFailure("the patch could not be taken back out of \(tree.path): \(why); remove the folder to start afresh"))
        }
        // A mutant that is the unchanged build byte for byte tests nothing: the patch changed no compiled code.
        if case .success(let binary) = built, FileManager.default.contentsEqual(atPath: binary, andPath: bin + "/control/hil") {
            return .failure(BuildFailure("its build is the unchanged computer's, byte for byte: the patch changed nothing that is compiled into hil"))
        }
        return built
    }

    /// Why a mutant has no binary.
    package struct BuildFailure: Error, Sendable, CustomStringConvertible {
        package var description: String
        init(_ description: String) { self.description = description }
    }

    private func build(as name: String) async -> Result<String, BuildFailure> {
        let output: CollectedOutput
        do {
            output = try await ChildProcess.run(
                "swift", arguments: ["build", "-c", configuration, "--product", "hil", "--package-path", tree.path],
                errors: .joined, timeout: timeout)
        } catch {
            return .failure(BuildFailure("swift build did not finish: \(error)"))
        }
        guard output.succeeded else {
            let errors = output.standardOutput.split(separator: "\n").filter { $0.contains("error:") }.prefix(3)
            return .failure(BuildFailure("swift build failed: " + (errors.isEmpty ? String(output.text.suffix(400)) : errors.joined(separator: "\n"))))
        }
        let folder = bin + "/" + name
        let target = folder + "/hil"
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try? FileManager.default.removeItem(atPath: target)
            try FileManager.default.copyItem(atPath: tree.path + "/.build/\(configuration)/hil", toPath: target)
        } catch {
            return .failure(BuildFailure("cannot keep the built hil as \(target): \(error.localizedDescription)"))
        }
        return .success(target)
    }

    /// `git apply …` in the copy, as patch(1) would: git must not find the checkout the copy sits in (`.build-mutants`
    /// is inside it), or it applies the patch's paths relative to that checkout's top and skips them all, silently.
    /// Nil when it worked.
    private func git(_ arguments: [String]) async -> String? {
        var environment = ProcessInfo.processInfo.environment
        environment["GIT_CEILING_DIRECTORIES"] = (tree.path as NSString).deletingLastPathComponent
        do {
            let output = try await ChildProcess.run("git", arguments: arguments, environment: environment, workingDirectory: tree.path,
                                                    errors: .joined, timeout: .seconds(60))
            return output.succeeded ? nil : output.text
        } catch {
            return "\(error)"
        }
    }
}
