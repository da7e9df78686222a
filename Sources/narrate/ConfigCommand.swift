import ArgumentParser
import Narration
import NarrationCore

extension Narrate {
    /// `narrate config`: the settings narrate runs with and where each came from (`show`, the
    /// default), or a commented config.toml to start from (`init`).
    struct Config: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show the settings narrate runs with, and where each came from.",
            discussion: """
                Every setting comes from one of three places: narrate's default, a line of \
                config.toml ($XDG_CONFIG_HOME/narrate/config.toml, else \
                ~/.config/narrate/config.toml), or an environment variable (NARRATE_HOME, \
                XDG_DATA_HOME, XDG_CONFIG_HOME, AWS_PROFILE, AWS_REGION, …). Each line says which: \
                "(config.toml line 3)", "(default)" or "(environment NARRATE_HOME)".

                Secrets are never shown: AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and \
                AWS_SESSION_TOKEN are listed only as present or absent, and a credentials file \
                only by its path and whether it exists (it is not read).

                --json prints an array of {setting, group, value, source, file, line, variable}.

                `narrate config init` writes a config.toml to start from: every setting, \
                commented out, with an example and its default.
                """,
            subcommands: [Show.self, Init.self],
            defaultSubcommand: Show.self)
    }
}

extension Narrate.Config {
    /// `narrate config` and `narrate config show`: every setting, its value and its source.
    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show every setting in use, its value and where it came from.")

        @OptionGroup var output: JSONOption

        func run() throws {
            let settings: EffectiveSettings
            do {
                settings = try EffectiveSettings.load()
            } catch {
                Console.error(error.sentence)
                throw ExitCode(error.exitStatus)
            }
            if output.json {
                Console.printJSON(settings.entries.map(SettingJSON.init))
                return
            }
            for group in EffectiveSettings.Entry.Group.allCases {
                let entries = settings.entries.filter { $0.group == group }
                guard !entries.isEmpty else { continue }
                // Each group's sources line up in one column.
                let width = entries.map { $0.name.count + 3 + $0.value.count }.max() ?? 0
                if group != .general { Console.print("") }
                Console.print("[\(group.rawValue)]")
                for entry in entries {
                    let setting = "\(entry.name) = \(entry.value)"
                    Console.print(setting + String(repeating: " ", count: max(0, width - setting.count)) + "   (\(Self.describe(entry.source)))")
                }
            }
        }

        /// "config.toml line 3", "default", "environment NARRATE_HOME".
        static func describe(_ source: SettingSource) -> String {
            switch source {
            case .default: "default"
            case .file(let path, let line): "\(path.split(separator: "/").last.map(String.init) ?? path) line \(line)"
            case .environment(let variable): "environment \(variable)"
            }
        }
    }
}

/// One setting in `narrate config --json`.
struct SettingJSON: Encodable {
    let setting: String
    let group: String
    let value: String
    let source: String
    let file: String?
    let line: Int?
    let variable: String?

    init(_ entry: EffectiveSettings.Entry) {
        setting = entry.name
        group = entry.group.rawValue
        value = entry.value
        switch entry.source {
        case .default:
            source = "default"
            file = nil
            line = nil
            variable = nil
        case .file(let path, let number):
            source = "file"
            file = path
            line = number
            variable = nil
        case .environment(let name):
            source = "environment"
            file = nil
            line = nil
            variable = name
        }
    }
}
