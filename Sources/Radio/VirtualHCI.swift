import Glibc
package import System

/// The kernel's virtual HCI, /dev/vhci (drivers/bluetooth/hci_vhci.c): each open file is one controller the kernel
/// sees as hciN. The first write is the vendor packet that creates it (0xff, then 0x00 for a primary controller);
/// the kernel answers with 0xff, the same opcode and the new controller's index (16 bits, little-endian). After that
/// the kernel writes the host's commands and ACL data to the file and reads the controller's events and data from it,
/// one H4 packet per read or write.
package enum VirtualHCI {
    /// The vendor packet that creates a primary controller (`struct vhci_create_req`).
    package static let createRequest: [UInt8] = [0xff, 0x00]

    /// The controller's index from the kernel's answer (`struct vhci_create_rsp`), or nil when it is none.
    package static func index(fromReply reply: some Collection<UInt8>) -> UInt16? {
        let bytes = Array(reply)
        guard bytes.count == 4, bytes[0] == 0xff, bytes[1] == 0x00 else { return nil }
        return UInt16(bytes[2]) | UInt16(bytes[3]) << 8
    }

    /// Opens `path` (/dev/vhci) and creates a controller on it; returns the open file and the controller's index.
    /// - Throws: `RadioError` `.controller` naming the device and what to do.
    package static func open(_ path: String) throws(RadioError) -> (FileDescriptor, index: UInt16) {
        let file: FileDescriptor
        do {
            file = try FileDescriptor.open(path, O_RDWR)
        } catch {
            let hint: String? = switch error {
            case .noSuchFileOrDirectory: "the kernel has no virtual HCI: load hci_vhci (`modprobe hci_vhci`), or run in the vm rig"
            case .permissionDenied, .notPermitted: "run it as root (the vm rig's guest does)"
            default: nil
            }
            throw RadioError(.controller, "cannot open \(path): \(error.numbered)", hint: hint)
        }
        return (file, try create(on: file, path: path))
    }

    /// Writes the create request to an open virtual HCI and reads the kernel's answer (at most 2 s).
    package static func create(on file: FileDescriptor, path: String) throws(RadioError) -> UInt16 {
        do {
            try file.writeAll(createRequest)
        } catch {
            throw RadioError(.controller, "\(path) refused the request to create a controller: \(error.numbered)",
                             hint: "another program may have created one on this file already")
        }
        var entry = pollfd(fd: file.rawValue, events: Int16(POLLIN), revents: 0)
        var ready: Int32
        repeat { ready = poll(&entry, 1, 2000) } while ready < 0 && Errno.current == .interrupted
        guard ready > 0 else {
            throw RadioError(.controller, "\(path) did not answer the request to create a controller within 2 s")
        }
        var reply = [UInt8](repeating: 0, count: 16)
        let count: Int
        do {
            count = try file.read(into: &reply)
        } catch {
            throw RadioError(.controller, "cannot read \(path)'s answer to the request to create a controller: \(error.numbered)")
        }
        guard let index = Self.index(fromReply: reply.prefix(count)) else {
            let text = reply.prefix(count).map { hex(UInt16($0), 2) }.joined(separator: " ")
            throw RadioError(.controller, "\(path) answered the request to create a controller with [\(text)], not 0xff 0x00 and an index")
        }
        return index
    }
}
