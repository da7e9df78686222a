/// What is wrong with a setting of config.toml, as the sentence that names the file and, where
/// the setting is written, its line: "config.toml, line 7: unknown setting "bitrat" in
/// [profiles.org] (known: …)."
struct ConfigProblem {
    let file: String
    let document: ConfigDocument
    /// The table being read, as its key path (`["profiles", "org"]`); empty at the top level.
    var table: [String] = []

    /// The error for `reason`, at the line of `key` in this table, else of the table's header.
    func callAsFunction(_ reason: String, at key: String? = nil) -> NarrationError {
        let line = key.flatMap { document.lines[table + [$0]] } ?? (table.isEmpty ? nil : document.lines[table])
        return NarrationError(.usage, "\(line.map { "\(file), line \($0)" } ?? file): \(reason).")
    }

    /// The same file, reading the table `path` names.
    func within(_ path: String...) -> ConfigProblem {
        ConfigProblem(file: file, document: document, table: path)
    }
}
