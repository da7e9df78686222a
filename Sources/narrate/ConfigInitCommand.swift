import ArgumentParser
import Narration
import NarrationCore

extension Narrate.Config {
    /// `narrate config init`: writes a commented config.toml (`ConfigTemplate`) at its place,
    /// never over one that is there unless told to.
    struct Init: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write a commented config.toml to start from.",
            discussion: """
                Writes config.toml ($XDG_CONFIG_HOME/narrate/config.toml, else \
                ~/.config/narrate/config.toml) with every section and setting narrate reads, \
                each commented out with an example and its default, so that nothing changes \
                until you uncomment a line. An existing config.toml is left as it is unless \
                --force is given.
                """)

        @Flag(help: "Replace an existing config.toml.")
        var force = false

        func run() throws {
            let place = Settings.fileURL().path
            if Settings.fileIsPresent() && !force {
                Console.error("\(place) exists already and was left as it is; edit it, or add --force to replace it with the commented one.")
                throw ExitCode(1)
            }
            do {
                try Settings.writeFile(ConfigTemplate.text)
            } catch {
                Console.error(error.sentence)
                throw ExitCode(error.exitStatus)
            }
            Console.print("Wrote \(place): every setting commented out, with its default. Run \"narrate config\" to see the settings in use.")
        }
    }
}
