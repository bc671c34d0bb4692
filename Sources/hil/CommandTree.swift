import ArgumentParser

/// A command's commands by name, each with its own.
struct CommandTree {
    var commands: [String: CommandTree] = [:]

    init(_ command: any ParsableCommand.Type) {
        for subcommand in command.configuration.subcommands {
            commands[subcommand._commandName] = CommandTree(subcommand)
        }
    }
}
