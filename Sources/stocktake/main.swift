import Foundation
import StocktakeCore

// The only place that ends the process: every command throws how it ends.
do {
    try StocktakeCommand.run(Array(CommandLine.arguments.dropFirst()))
} catch let end as CommandExit {
    if let message = end.message { FileHandle.standardError.write(Data((message + "\n").utf8)) }
    exit(end.status)
} catch {
    // The error may quote a sheet's cells, so control characters are escaped; it is one line on standard error.
    FileHandle.standardError.write(Data("stocktake: \(ControlCharacters.escaped("\(error)"))\n".utf8))
    exit((error as? any UserFacingError)?.exitStatus.rawValue ?? ExitStatus.ioError.rawValue)
}
