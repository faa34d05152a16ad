import Testing

@testable import stocktake

/// `--jobs`, `--state` and `--account` mean, and are described, the same in every command that takes them.
struct SharedOptionsTests {
    /// The option `name` of `command`'s table.
    func option(_ name: String, of command: any Command.Type) -> Option? {
        command.configuration.options.first { $0.name == name }
    }

    @Test func theNightlyCommandsShareTheirOptions() throws {
        let commands: [any Command.Type] = [
            RunCommand.self, CheckCommand.self, LookupCommand.self, InitCommand.self, RunAccountCommand.self,
        ]
        for command in commands {
            let jobs = try #require(option("--jobs", of: command))
            #expect(jobs.help == SharedOptions.jobs.help && jobs.kind == SharedOptions.jobs.kind)
            #expect(command.configuration.help.contains("    --jobs DIR  "))
            if let account = option("--account", of: command) {
                #expect(account.help == SharedOptions.account.help && account.kind == SharedOptions.account.kind)
            }
            if let state = option("--state", of: command) {
                #expect(state.help == SharedOptions.state.help && state.kind == SharedOptions.state.kind)
            }
        }
        for command in [RunCommand.self, CheckCommand.self] as [any Command.Type] {
            #expect(option("--account", of: command)?.isRepeatable == true, "\(command) takes several accounts")
        }
        for command in [LookupCommand.self, RunAccountCommand.self] as [any Command.Type] {
            #expect(option("--account", of: command)?.isRepeatable == false, "\(command) takes one account")
        }
        #expect(option("--state", of: RunCommand.self) != nil && option("--state", of: LookupCommand.self) != nil)
    }

    @Test func reconcileHasItsOwnAccountOption() throws {
        let account = try #require(option("--account", of: ReconcileCommand.self))
        #expect(account.help == "The account name for logs and reports (default: the central sheet's folder).")
    }
}
