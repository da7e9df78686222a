import ArgumentParser
import Foundation

extension Narrate {
    /// Parses the command line and runs the command, as ArgumentParser's own `main` does, except
    /// that a line it refuses (a value out of range, a missing argument) is one line on stderr,
    /// "Error: " and the sentence, without the usage and help text after it: a screen reader
    /// reads the sentence and nothing more, and scripts see one line. Help, version and the
    /// commands' own failures are as ArgumentParser prints them.
    static func main() async {
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            let code = exitCode(for: error)
            let sentence = message(for: error)
            // ExitCode: the command has said why already; success: help or version asked for.
            if error is ExitCode || code == .success || sentence.isEmpty { exit(withError: error) }
            Console.error("Error: " + sentence.split(whereSeparator: \.isNewline).joined(separator: " "))
            Foundation.exit(code.rawValue)
        }
    }
}
