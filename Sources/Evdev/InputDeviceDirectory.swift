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

    /// Polls until exactly one device is named `name` and its node exists, and returns the node's path.
    ///
    /// - Throws: `EvdevError` `.timeout` (naming the devices that are there), or `.ambiguous` when more than
    ///   one device kept that name until the deadline.
    func waitForDevice(named name: String, timeout: Duration, interval: Duration = .milliseconds(2))
        throws(EvdevError) -> String
    {
        let deadline = Deadline(after: timeout)
        let intervalNanoseconds = UInt64(interval.components.attoseconds / 1_000_000_000)
            + UInt64(interval.components.seconds) * 1_000_000_000
        while true {
            let present = entries()
            let matches = present.filter { $0.name == name }
            // The sysfs entry appears as the device registers; the node follows from devtmpfs.
            if matches.count == 1, system_exists(path(of: matches[0])) { return path(of: matches[0]) }
            if deadline.hasPassed {
                throw matches.count > 1 ? ambiguous(name, matches) : notFound(name, present, timeout: timeout)
            }
            system_nanosleep(min(intervalNanoseconds, deadline.remainingNanoseconds))
        }
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
