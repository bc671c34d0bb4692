import Foundation
import Processes
import Waiting

/// The evdev nodes the kernel lists under /sys/class/input, with their device names — how a device is found
/// without udev (the vm guest has none; devtmpfs makes the /dev/input nodes).
struct InputDeviceDirectory {
    /// One evdev interface: `event3` named `RemoteTouch`.
    struct Entry: Equatable {
        var node: String
        var name: String
    }

    /// Where the kernel lists input devices (`/sys/class/input`).
    var sysfs: String = "/sys/class/input"
    /// Where devtmpfs makes their nodes (`/dev/input`).
    var dev: String = "/dev/input"

    /// The `eventN` interfaces present now, with the names in `eventN/device/name`, by number.
    func entries() -> [Entry] {
        system_listDirectory(sysfs)
            .filter { $0.hasPrefix("event") && Int($0.dropFirst(5)) != nil }
            .sorted { Int($0.dropFirst(5))! < Int($1.dropFirst(5))! }
            .compactMap { node in
                // The attribute ends in a newline; a device removed in between has no file any more.
                guard var name = system_readSmallFile("\(sysfs)/\(node)/device/name") else { return nil }
                if name.hasSuffix("\n") { name.removeLast() }
                return Entry(node: node, name: name)
            }
    }

    /// The node path for `entry`: `/dev/input/event3`.
    func path(of entry: Entry) -> String { "\(dev)/\(entry.node)" }

    /// Waits until exactly one device is named `name` and its node exists, and returns the node's path. Woken by the
    /// nodes devtmpfs makes in `dev` (inotify, `FolderWatch`: a device's sysfs entry is there before its node), or by
    /// `dev` itself appearing (the machine's first input device); it looks once before the first change.
    ///
    /// - Throws: `EvdevError` `.timeout` (naming the devices that are there), or `.ambiguous` when more than
    ///   one device kept that name until the deadline; `CancellationError`.
    func waitForDevice(named name: String, timeout: Duration) async throws -> String {
        let deadline = ContinuousClock.now + timeout
        while true {
            let watching = system_exists(dev) ? dev : (dev as NSString).deletingLastPathComponent
            let changes = Changes()
            // A folder that cannot be watched (no /dev/input nor its parent: not a Linux input stack) leaves the wait
            // to its timeout.
            let watch = try? FolderWatch(watching, changes: changes)
            defer { watch?.stop() }
            let seen = try await changes.upTo(ContinuousClock.now.duration(to: deadline)) { () -> Sighting? in
                if let node = found(name) { return .node(node) }
                return watching != dev && system_exists(dev) ? .folderAppeared : nil
            }
            switch seen {
            case .node(let node)?: return node
            case .folderAppeared?: continue
            case nil:
                let present = entries(), matches = present.filter { $0.name == name }
                throw matches.count > 1 ? ambiguous(name, matches) : notFound(name, present, timeout: timeout)
            }
        }
    }

    /// What a look at the folders found.
    private enum Sighting {
        case node(String)
        /// `dev` is there now: watch it instead of its parent.
        case folderAppeared
    }

    /// The node of the one device named `name`, once it exists.
    private func found(_ name: String) -> String? {
        let matches = entries().filter { $0.name == name }
        // The sysfs entry appears as the device registers; the node follows from devtmpfs.
        return matches.count == 1 && system_exists(path(of: matches[0])) ? path(of: matches[0]) : nil
    }

    private func notFound(_ name: String, _ present: [Entry], timeout: Duration) -> EvdevError {
        let listing = present.isEmpty
            ? "none" : present.map { "\"\($0.name)\" (\($0.node))" }.joined(separator: ", ")
        let message: String
        if let entry = present.first(where: { $0.name == name }) {
            message = "input device \"\(name)\" is listed as \(sysfs)/\(entry.node) but \(path(of: entry)) "
                + "did not appear within \(timeout)"
        } else {
            message = "no input device named \"\(name)\" appeared under \(sysfs) within \(timeout) "
                + "(present: \(listing))"
        }
        return EvdevError(
            .timeout, path: sysfs, what: message,
            hint: "did the peripheral create its uinput device? It needs /dev/uinput (see `hil doctor`)")
    }

    private func ambiguous(_ name: String, _ matches: [Entry]) -> EvdevError {
        EvdevError(
            .ambiguous, path: sysfs,
            what: "\(matches.count) input devices are named \"\(name)\": "
                + matches.map(path(of:)).joined(separator: ", "),
            hint: "give each uinput device a unique name, or destroy the stale one")
    }
}
