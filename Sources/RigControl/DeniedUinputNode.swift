import Foundation
import System

/// A uinput device node that the computer is not allowed to open (R10): the same device numbers as
/// /dev/uinput, mode 0000, in a private folder. As root, the computer is started through `setpriv` without
/// CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH, so the kernel really refuses it (EACCES), as it would an
/// unprivileged user on a box without the udev rule. Not root (the nightly box's user hil), no device node can be
/// made (mknod needs CAP_MKNOD): the node is then an empty file of mode 0000, which the kernel refuses to open for
/// that user with the same EACCES before it could tell what the file is.
package struct DeniedUinputNode: Sendable {
    package let folder: String
    package let path: String
    /// Prepended to the computer's command line.
    package let launcher: [String]

    /// Makes the node.
    /// - Throws: `RigError` when `uinput` is not a character device, or the node cannot be made (needs root).
    package init(uinput: String = "/dev/uinput") throws(RigError) {
        var info = stat()
        guard stat(uinput, &info) == 0, info.st_mode & S_IFMT == S_IFCHR else {
            throw RigError(.fault, "\(uinput) is not a character device here, so there is nothing to deny (R10 needs the uinput module)")
        }
        var template = Array("/tmp/hil-r10-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else {
            throw RigError(.fault, "cannot create a folder under /tmp for the denied uinput node: \(Errno.current)")
        }
        folder = String(cString: made)
        path = folder + "/uinput"
        let kind = geteuid() == 0 ? S_IFCHR : S_IFREG
        guard mknod(path, kind | 0, kind == S_IFCHR ? info.st_rdev : 0) == 0, chmod(path, 0) == 0 else {
            let reason = Errno.current
            rmdir(folder)
            throw RigError(.fault, "cannot make the denied uinput node \(path): \(reason)")
        }
        if geteuid() == 0 {
            let setpriv = ["/usr/bin/setpriv", "/bin/setpriv"].first { FileManager.default.isExecutableFile(atPath: $0) }
            guard let setpriv else {
                unlink(path)
                rmdir(folder)
                throw RigError(.fault, "setpriv (util-linux) is needed to start the computer without CAP_DAC_OVERRIDE as root")
            }
            launcher = [setpriv, "--bounding-set", "-dac_override,-dac_read_search", "--"]
        } else {
            launcher = []
        }
    }

    /// Deletes the node and its folder.
    package func remove() {
        unlink(path)
        rmdir(folder)
    }
}
