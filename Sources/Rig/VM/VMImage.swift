package import RigControl
package import Foundation
import Processes
import System

/// The vm rig's boot files: Debian's kernel and an initramfs built by `Rigs/vm/build-image.sh`, cached under
/// `~/.cache/hil/vm/<kernel version>-<hash of the builder>` and rebuilt only when the builder changes.
package struct VMImage: Sendable {
    package var directory: String
    /// The uncompressed kernel when present (boots about 3 s faster under TCG via PVH), else vmlinuz.
    package var kernel: String
    package var initrd: String
    /// False when the image came from the cache.
    package var built: Bool
    package var elapsed: Duration

    /// Builds the image if it is not cached; the builder's progress goes to standard error.
    /// - Throws: `RigError.imageBuild` with the builder's exit status and what to try.
    package static func ensure(rigsDirectory: String) throws(RigError) -> VMImage {
        let builder = (rigsDirectory as NSString).appendingPathComponent("vm/build-image.sh")
        guard FileManager.default.isExecutableFile(atPath: builder) else {
            throw RigError(.imageBuild, "\(builder): the vm image builder is missing or not executable")
        }
        let clock = ContinuousClock()
        let start = clock.now
        // Same process group as hil: a Ctrl-C during the build stops both. Its progress (standard error) reaches the
        // user; no time limit, as a first build downloads Debian's packages.
        let run: CollectedOutput
        do throws(SystemError) {
            run = try ChildProcess.runBlocking(builder, errors: .inherited, ownProcessGroup: false, timeout: nil)
        } catch {
            throw RigError(error, code: .imageBuild)
        }
        let status = run.status
        let lines = run.standardOutput.split(separator: "\n").map(String.init)
        guard status == 0, let directory = lines.last, !directory.isEmpty else {
            throw RigError(
                .imageBuild,
                "building the vm image failed (\(builder) exited with status \(status))",
                hint: "read its messages above; if a package could not be downloaded run `apt-get update`; if the disk is full free space under ~/.cache/hil")
        }
        let manager = FileManager.default
        let vmlinux = (directory as NSString).appendingPathComponent("vmlinux")
        let vmlinuz = (directory as NSString).appendingPathComponent("vmlinuz")
        let initrd = (directory as NSString).appendingPathComponent("initrd.gz")
        let kernel = manager.fileExists(atPath: vmlinux) ? vmlinux : vmlinuz
        guard manager.fileExists(atPath: kernel), manager.fileExists(atPath: initrd) else {
            throw RigError(.imageBuild, "\(directory): the builder reported this image, but its kernel or initrd.gz is missing",
                           hint: "remove the folder and run again to rebuild it")
        }
        let elapsed = clock.now - start
        // The builder prints nothing to standard error when the image was cached.
        let built = lines.count > 1 || elapsed > .seconds(5)
        return VMImage(directory: directory, kernel: kernel, initrd: initrd, built: built, elapsed: elapsed)
    }
}

extension VMImage {
    /// Whether the image the vm rig would boot is built, as `hil doctor` reports it.
    package enum Cache: Sendable, Equatable {
        /// Built in this folder, last built at `built` (its stamp's time), when known.
        case built(folder: String, at: Date?)
        /// Not built yet: the first vm command builds it into this folder.
        case notBuilt(folder: String)
        /// The builder could not tell: its reason.
        case unknown(String)
    }

    /// Asks the builder (`build-image.sh --check`), which builds nothing: the image for this kernel package and
    /// these rig scripts is built (exit 0), or not (exit 3); each prints the folder.
    ///
    /// - Parameters:
    ///   - rigsDirectory: the `Rigs/` folder.
    ///   - environment: the builder's environment (its cache is `$XDG_CACHE_HOME/hil/vm`, else `~/.cache/hil/vm`).
    package static func cache(rigsDirectory: String, environment: [String: String]? = nil) -> Cache {
        let builder = (rigsDirectory as NSString).appendingPathComponent("vm/build-image.sh")
        guard FileManager.default.isExecutableFile(atPath: builder) else {
            return .unknown("\(builder): the vm image builder is missing or not executable")
        }
        // A builder from before --check would take it for its CACHE_DIR and start a build: ask only one that has it.
        guard let text = try? String(contentsOfFile: builder, encoding: .utf8), text.contains("build-image.sh [--check]") else {
            return .unknown("\(builder) has no --check (rig files older than this hil)")
        }
        let run: CollectedOutput
        do throws(SystemError) {
            run = try ChildProcess.runBlocking(builder, arguments: ["--check"], environment: environment,
                                               timeout: .seconds(60))
        } catch {
            return .unknown("\(builder) --check: \(error)")
        }
        let folder = run.standardOutput.split(separator: "\n").last.map(String.init) ?? ""
        switch run.termination {
        case .exited(0) where !folder.isEmpty:
            let stamp = (folder as NSString).appendingPathComponent("stamp")
            let built = (try? FileManager.default.attributesOfItem(atPath: stamp))?[.modificationDate] as? Date
            return .built(folder: folder, at: built)
        case .exited(3) where !folder.isEmpty:
            return .notBuilt(folder: folder)
        default:
            let reason = run.standardError.split(separator: "\n").last.map(String.init) ?? ""
            return .unknown(reason.isEmpty ? "\(builder) --check ended with status \(run.status)" : reason)
        }
    }
}
