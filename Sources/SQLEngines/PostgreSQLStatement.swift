/// The catalog's statements mark arguments with `?`, as SQLite does; PostgreSQL numbers them
/// (`$1`, `$2`, …). This rewrites one into the other, leaving a `?` inside a quoted string, a
/// quoted name or a comment alone.
///
/// Written here because PostgresNIO takes a statement's text as it is (`PostgresQuery(unsafeSQL:)`)
/// and SQLKit's rewriting comes with its whole query builder.
enum PostgreSQLStatement {
    /// The statement with numbered arguments.
    /// - Throws: `statement` when its `?`s are not `arguments` many.
    static func numbered(_ sql: String, arguments: Int) throws(SQLEngineError) -> String {
        var result = ""
        result.reserveCapacity(sql.utf8.count + 8)
        var count = 0
        var characters = sql.makeIterator()
        var quote: Character?  // inside '…' or "…"
        var lineComment = false
        var previous: Character?
        while let character = characters.next() {
            defer { previous = character }
            if lineComment {
                if character == "\n" { lineComment = false }
            } else if let open = quote {
                if character == open { quote = nil }  // a doubled quote closes and opens again
            } else if character == "'" || character == "\"" {
                quote = character
            } else if character == "-", previous == "-" {
                lineComment = true
            } else if character == "?" {
                count += 1
                result += "$\(count)"
                continue
            }
            result.append(character)
        }
        guard count == arguments else {
            throw .statement(sql, message: "\(count) arguments marked for \(arguments) given")
        }
        return result
    }
}
