/// The command line that runs this same `hil` command again inside a rig (`hil run`, `bench` and `soak` outside a
/// rig bring one up and re-execute themselves in it).
///
/// The original arguments pass on as they were typed, so no option can be forgotten; only the options that must
/// differ inside are replaced (the rig's name, the rig files' folder, the output folder in the guest). Both
/// `--name value` and `--name=value` spellings are recognised; nothing after a `--` terminator is touched, and the
/// replaced options go before it.
package struct RigReexec: Sendable, Equatable {
    /// The program to run (the resolved `hil` executable).
    package var executable: String
    /// What the user typed after the program name (`CommandLine.arguments.dropFirst()`).
    package var arguments: [String]

    /// - Parameters:
    ///   - commandLine: `CommandLine.arguments`: the program as called, then its arguments.
    ///   - executable: the path that runs this `hil` in the rig (`commandLine[0]` may be relative or a symlink).
    package init(commandLine: [String], executable: String) {
        precondition(!commandLine.isEmpty, "a command line has at least the program")
        self.executable = executable
        arguments = Array(commandLine.dropFirst())
    }

    /// The arguments with each option of `replacements` set to its value (its earlier occurrences removed), and
    /// the options named in `removing` (which take a value) left out.
    /// - Parameters:
    ///   - replacements: option and value, in order, e.g. `[("--output", "/hil/share/results")]`.
    ///   - removing: options to drop with their value, e.g. `["--timeout"]`.
    package func command(replacing replacements: [(option: String, value: String)], removing: Set<String> = [])
        -> [String]
    {
        let dropped = removing.union(replacements.map(\.option))
        var kept: [String] = []
        var index = arguments.startIndex
        var terminator: Int?
        while index < arguments.endIndex {
            let word = arguments[index]
            if word == "--" {
                terminator = kept.count
                kept.append(contentsOf: arguments[index...])
                break
            }
            let name = word.split(separator: "=", maxSplits: 1).first.map(String.init) ?? word
            if word.hasPrefix("--"), dropped.contains(name) {
                // `--name value` takes the next word too; `--name=value` is one word.
                index += word.contains("=") ? 1 : 2
                continue
            }
            kept.append(word)
            index += 1
        }
        let added = replacements.flatMap { [$0.option, $0.value] }
        kept.insert(contentsOf: added, at: terminator ?? kept.count)
        return [executable] + kept
    }
}
