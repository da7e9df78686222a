import ArgumentParser

/// `--article ID`: which article a command works on; the current article when omitted.
struct ArticleOption: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "The article's id, or the start of it (default: the current article, the one last created or used).",
        valueName: "ID"))
    var article: String?
}

/// `--json`: machine-readable output on stdout instead of text.
struct JSONOption: ParsableArguments {
    @Flag(name: .long, help: "Print the result as JSON for scripts.")
    var json = false
}

/// How live progress is shown on stderr: bar (a line redrawn in place), json (one object per
/// line, for scripts), none, or auto (bar on a terminal, else none).
enum ProgressMode: String, ExpressibleByArgument, CaseIterable {
    case auto, bar, json, none
}

/// `--progress MODE` for commands whose long work is an export or an upload.
struct ProgressOption: ParsableArguments {
    @Option(help: ArgumentHelp("Progress on stderr: bar, json (one object per line), none, or auto (bar on a terminal).", valueName: "MODE"))
    var progress: ProgressMode = .auto
}
