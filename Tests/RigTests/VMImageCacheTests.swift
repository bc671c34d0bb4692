import Foundation
import HILTestSupport
import Rig
import Testing

/// `hil doctor`'s vm image line: `VMImage.cache` asks the builder (`build-image.sh --check`), which builds nothing.
@Suite("Whether the vm image is built, without building it")
struct VMImageCacheTests {
    /// A scratch folder, removed at the end.
    static func scratch() throws -> String {
        let folder = NSTemporaryDirectory() + "hil-image-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    static func script(_ path: String, _ body: String) async throws {
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        // Through `writeExecutable`: a script written from this process can be "Text file busy" when run, while
        // another test's fork still holds its write descriptor.
        try await writeExecutable("#!/bin/bash\n" + body + "\n", to: path)
    }

    @Test("the real builder with --check: the folder it would build into, not built, and nothing downloaded or written there")
    func realBuilderNotBuilt() async throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // apt-cache names a kernel no image was built for; every tool a build would run leaves a mark if run.
        try await Self.script(folder + "/bin/apt-cache", "echo '  Depends: linux-image-6.1.0-99-amd64'")
        for tool in ["apt-get", "dpkg-deb", "depmod", "modprobe", "cpio"] {
            try await Self.script("\(folder)/bin/\(tool)", "touch \(folder)/ran-\(tool); exit 1")
        }
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = folder + "/bin:/usr/bin:/bin"
        environment["XDG_CACHE_HOME"] = folder + "/cache"
        let cache = VMImage.cache(rigsDirectory: packageRoot.appendingPathComponent("Rigs").path, environment: environment)
        guard case .notBuilt(let image) = cache else {
            Issue.record("expected not built, got \(cache)")
            return
        }
        #expect(image.hasPrefix(folder + "/cache/hil/vm/6.1.0-99-amd64-"), "\(image)")
        #expect(!FileManager.default.fileExists(atPath: image))
        let marks = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasPrefix("ran-") }
        #expect(marks.isEmpty, "a check ran \(marks)")
    }

    @Test("the builder's answer: 0 built (with its stamp's time), 3 not built, anything else its reason")
    func answers() async throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let builder = folder + "/vm/build-image.sh"
        let usage = "# Usage: build-image.sh [--check] [CACHE_DIR]\n"
        try FileManager.default.createDirectory(atPath: folder + "/img", withIntermediateDirectories: true)
        try "6.1.0-99-amd64 abc\n".write(toFile: folder + "/img/stamp", atomically: true, encoding: .utf8)

        try await Self.script(builder, usage + "[ \"$1\" = --check ] || exit 9; echo \(folder)/img")
        guard case .built(let built, let at) = VMImage.cache(rigsDirectory: folder) else {
            Issue.record("expected built: \(VMImage.cache(rigsDirectory: folder))")
            return
        }
        #expect(built == folder + "/img")
        #expect(at.map { abs($0.timeIntervalSinceNow) < 600 } == true)

        try await Self.script(builder, usage + "echo /elsewhere/img; exit 3")
        #expect(VMImage.cache(rigsDirectory: folder) == .notBuilt(folder: "/elsewhere/img"))

        try await Self.script(builder, usage + "echo 'build-image: error: run apt-get update first' >&2; exit 1")
        #expect(VMImage.cache(rigsDirectory: folder) == .unknown("build-image: error: run apt-get update first"))
    }

    @Test("a builder from before --check is not run: it would take --check for its folder and build there")
    func oldBuilder() async throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try await Self.script(folder + "/vm/build-image.sh", "# Usage: build-image.sh [CACHE_DIR]\ntouch \(folder)/built")
        guard case .unknown(let reason) = VMImage.cache(rigsDirectory: folder) else {
            Issue.record("an old builder was taken at its word")
            return
        }
        #expect(reason.contains("has no --check"))
        #expect(!FileManager.default.fileExists(atPath: folder + "/built"))
    }
}
