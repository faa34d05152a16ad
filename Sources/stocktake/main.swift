import Foundation

// The only place that ends the process, besides an account's process forked by the account launcher, which ends the
// same way (`LaunchAccountsCommand`).
exit(StocktakeCommand.exitStatus(running: Array(CommandLine.arguments.dropFirst())))
