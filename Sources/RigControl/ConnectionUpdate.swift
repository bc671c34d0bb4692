import Foundation
import Processes
import System

/// The phone's stack moving its link to another interval, as a central's Connection Update does: LE Connection Update
/// (HCI 0x2013) from the phone's host, sent with hcitool (BlueZ's raw HCI tool), which waits for the LE Connection
/// Update Complete. The kernel keeps the new parameters; btvirt carries the update to the computer's controller,
/// whose host answers its Remote Connection Parameter Request and sees the Complete too; both bridges read it (and
/// the capture shows it). The one owner of the hcitool command lines.
package enum ConnectionUpdate {
    /// What a rig file's `connection` gives when it does not say (Rigs/README.md).
    package static let defaultSupervisionTimeoutMs = 2000

    /// Asks for `intervalMs` (min = max) on the link to `address` from `adapter`, latency 0 and `supervisionTimeoutMs`;
    /// returns what was done, for the step's message.
    /// - Throws: `RigError` `.fault` with hcitool's answer when there is no such link or the update failed.
    /// - Returns: the link's handle on `adapter` and what was done, for the step's message.
    package static func request(intervalMs: Double, supervisionTimeoutMs: Int, to address: String, on adapter: String) throws -> (handle: Int, done: String) {
        let handle = try self.handle(of: address, on: adapter)
        let units = Int((intervalMs / 1.25).rounded()), timeout = supervisionTimeoutMs / 10
        let arguments = ["-i", adapter, "lecup", "--handle", "\(handle)", "--min", "\(units)", "--max", "\(units)",
                         "--latency", "0", "--timeout", "\(timeout)"]
        let run = try ChildProcess.runBlocking("/usr/bin/hcitool", arguments: arguments, errors: .joined, timeout: .seconds(10))
        // hcitool lecup exits 0 whatever happened: it prints nothing when the Complete came with status 0, and
        // "Could not change connection params: …" (or its usage) otherwise.
        let said = run.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        guard run.succeeded, said.isEmpty else {
            throw RigError(.fault, "hcitool \(arguments.joined(separator: " ")) failed: \(said.isEmpty ? "exit status \(run.status)" : said)",
                              hint: "the capture (--capture always) shows the LE Connection Update and its answers; the computer's kernel refuses an interval above its own maximum")
        }
        return (handle, "the phone moved its link (handle \(handle)) to a \(NumberText.plain(intervalMs)) ms interval: LE Connection Update from \(adapter), Complete received")
    }

    /// The longest interval the computer's host accepts from a phone by default: the Linux kernel's own maximum
    /// (`hdev->le_conn_max_interval`, 0x0038), which a computer whose bluetoothd sets no [LE] interval keeps.
    package static let computerMaximumMs = 70.0

    /// Lets the computer's host accept a phone's connection update up to `computerMaximumMs`. The rig's one bluetoothd
    /// gives every adapter the [LE] intervals its main.conf asks for as a central (the rig's interval), and the
    /// computer's kernel refuses a Remote Connection Parameter Request above its maximum (a Negative Reply, reason
    /// 0x1e): the computer's adapter gets the kernel's own maximum back through mgmt's Set Default System
    /// Configuration (`btmgmt set-sysconfig`, type 0x0018), before the phone connects (a link keeps the maximum its
    /// connection began with).
    /// Returns nil when the kernel took it, else what went wrong: mgmt needs CAP_NET_ADMIN, which the hardware rig's
    /// unprivileged `hil` user lacks (a box's own bluetoothd then decides, from its main.conf), so a failure only
    /// explains a refused `intervalMs` step later.
    package static func acceptPhoneIntervals(on adapter: String) -> String? {
        do {
            try setComputerMaximum(on: adapter)
            return nil
        } catch {
            return "\(error)"
        }
    }

    /// - Throws: `RigError` `.fault` with btmgmt's answer.
    private static func setComputerMaximum(on adapter: String) throws {
        guard let index = Int(adapter.dropFirst(3)) else { return }
        let units = UInt16(computerMaximumMs / 1.25)
        let value = String(format: "%02x%02x", units & 0xff, units >> 8)
        let arguments = ["--index", "\(index)", "set-sysconfig", "-v", "0018:2:\(value)"]
        let run = try ChildProcess.runBlocking("/usr/bin/btmgmt", arguments: arguments, errors: .joined, timeout: .seconds(10))
        // btmgmt prints nothing without a terminal; its exit status says whether the kernel took the setting.
        guard run.succeeded else {
            let said = run.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
            throw RigError(.fault, "btmgmt \(arguments.joined(separator: " ")) failed (exit status \(run.status))\(said.isEmpty ? "" : ": \(said)")",
                              hint: "mgmt's Set Default System Configuration needs root (CAP_NET_ADMIN), bluetoothd running and btmgmt (bluez)")
        }
    }

    /// The handle of `adapter`'s LE link to `address`, from `hcitool con`.
    static func handle(of address: String, on adapter: String) throws -> Int {
        let run = try ChildProcess.runBlocking("/usr/bin/hcitool", arguments: ["-i", adapter, "con"], errors: .joined, timeout: .seconds(10))
        guard let handle = handle(in: run.standardOutput, of: address) else {
            throw RigError(.fault, "\(adapter) has no LE link to \(address) (hcitool con: \(run.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)))")
        }
        return handle
    }

    /// Reads `hcitool con`'s `\t< LE AA:BB:CC:DD:EE:FF handle 3585 state 1 lm CENTRAL` lines.
    package static func handle(in listing: String, of address: String) -> Int? {
        for line in listing.split(separator: "\n") where line.uppercased().contains(address.uppercased()) && line.contains(" LE ") {
            let words = line.split(separator: " ")
            if let at = words.firstIndex(of: "handle"), at + 1 < words.count, let handle = Int(words[at + 1]) { return handle }
        }
        return nil
    }
}
