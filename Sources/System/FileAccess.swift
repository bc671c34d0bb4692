package import Foundation
import Glibc

/// Reading and writing whole files with reasons a person can act on: the system's own words for the errno
/// ("No such file or directory", "Permission denied"), or "is a folder", never Foundation's error text (which reads
/// "The file couldn't be opened" or "NSCocoaErrorDomain error 256").
package enum FileAccess {
    /// The file's bytes, or why it cannot be read: `is a folder, not a file`, `No such file or directory (errno 2)`.
    /// Read through the descriptor to its end, so a pipe (`<(…)`) or a device (/dev/null: no bytes) reads as the
    /// system gives it, and a failed read says the system's words once.
    package static func read(_ path: String) -> Result<Data, FileProblem> {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
            return .failure(FileProblem(path: path, reason: "is a folder, not a file"))
        }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return .failure(FileProblem(path: path, reason: Errno.current.numbered)) }
        defer { close(descriptor) }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                data.append(contentsOf: buffer[0..<count])
            } else if count == 0 {
                return .success(data)
            } else if errno != EINTR {
                return .failure(FileProblem(path: path, reason: Errno.current.numbered))
            }
        }
    }

    /// Makes sure `path` can be written as a file before any work is done: its folder is created when missing;
    /// refused when it is a folder (the advice names `suggested` in it) or its folder cannot be made.
    package static func prepareToWrite(_ path: String, suggested: String) -> FileProblem? {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
            return FileProblem(path: path, reason: "is a folder: give a file name in it, e.g. \((path as NSString).appendingPathComponent(suggested))")
        }
        if let file = fileAmongFolders(path) { return FileProblem(path: path, reason: "\(file) is a file, not a folder") }
        var missing: [String] = []
        var folder = (path as NSString).deletingLastPathComponent
        while !folder.isEmpty, folder != "/", !FileManager.default.fileExists(atPath: folder) {
            missing.append(folder)
            folder = (folder as NSString).deletingLastPathComponent
        }
        for folder in missing.reversed() where mkdir(folder, 0o755) != 0 && errno != EEXIST {
            return FileProblem(path: path, reason: "its folder \(folder) cannot be made: \(Errno.current.numbered)")
        }
        return nil
    }
}

extension FileAccess {
    /// Why writing `path` failed, in the system's words: a folder that is not there or not writable, or the path
    /// itself a folder.
    package static func writeProblem(_ path: String) -> FileProblem {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
            return FileProblem(path: path, reason: "is a folder, not a file")
        }
        if let file = fileAmongFolders(path) { return FileProblem(path: path, reason: "\(file) is a file, not a folder") }
        let folder = (path as NSString).deletingLastPathComponent.isEmpty ? "." : (path as NSString).deletingLastPathComponent
        guard FileManager.default.fileExists(atPath: folder) else {
            return FileProblem(path: path, reason: "its folder \(folder): \(Errno.noSuchFileOrDirectory.numbered)")
        }
        guard access(folder, W_OK) == 0 else { return FileProblem(path: path, reason: "its folder \(folder): \(Errno.current.numbered)") }
        guard !FileManager.default.fileExists(atPath: path) || access(path, W_OK) == 0 else {
            return FileProblem(path: path, reason: Errno.current.numbered)
        }
        return FileProblem(path: path, reason: "the system refused the write (a full disk?)")
    }
}

extension FileAccess {
    /// The nearest of `path`'s folders that is there, when it is a file and not a folder (`x` of `x/y.html`): no file
    /// can be written under it.
    static func fileAmongFolders(_ path: String) -> String? {
        var folder = (path as NSString).deletingLastPathComponent
        while !folder.isEmpty, folder != "/" {
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder) { return isFolder.boolValue ? nil : folder }
            folder = (folder as NSString).deletingLastPathComponent
        }
        return nil
    }
}

/// Why a file cannot be read or written, in words a person can act on.
package struct FileProblem: Error, Sendable, Equatable {
    package var path: String
    package var reason: String
}

extension FileAccess {
    /// A Foundation file error in the system's words: the errno under it (`Permission denied (errno 13)`), never
    /// Foundation's own text ("The file couldn't be saved", "NSCocoaErrorDomain error 512").
    package static func reason(of error: any Error) -> String {
        let error = error as NSError
        if error.domain == NSPOSIXErrorDomain { return Errno(Int32(error.code)).numbered }
        if let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return Errno(Int32(underlying.code)).numbered
        }
        switch CocoaError.Code(rawValue: error.code) {
        case .fileNoSuchFile, .fileReadNoSuchFile: return Errno.noSuchFileOrDirectory.numbered
        case .fileWriteNoPermission, .fileReadNoPermission: return Errno.permissionDenied.numbered
        case .fileWriteOutOfSpace: return Errno(ENOSPC).numbered
        case .fileWriteFileExists: return Errno(EEXIST).numbered
        default: return "the system refused it (Foundation error \(error.code))"
        }
    }
}
