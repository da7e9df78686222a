@testable import SQLEngines
import Testing

/// The `?`s of the catalog's statements numbered for PostgreSQL: pure logic, beside the real
/// server's tests of the same statements (`SQLEngineContractTests`).
@Suite("Statements' arguments numbered for PostgreSQL")
struct PostgreSQLStatementTests {
    @Test("each ? outside quotes and comments becomes $1, $2, …; those inside stay")
    func numbered() throws {
        #expect(try PostgreSQLStatement.numbered("SELECT a FROM t WHERE b = ? AND c = ?", arguments: 2) == "SELECT a FROM t WHERE b = $1 AND c = $2")
        #expect(try PostgreSQLStatement.numbered("SELECT '?', 'it''s ?', \"odd?name\" FROM t WHERE x = ?", arguments: 1)
            == "SELECT '?', 'it''s ?', \"odd?name\" FROM t WHERE x = $1")
        #expect(try PostgreSQLStatement.numbered("SELECT 1 -- what? \nWHERE y = ?", arguments: 1) == "SELECT 1 -- what? \nWHERE y = $1")
        #expect(try PostgreSQLStatement.numbered("SELECT 5 - ?", arguments: 1) == "SELECT 5 - $1")
    }

    @Test("as many ?s as arguments, or an error naming both counts")
    func counted() {
        #expect(throws: SQLEngineError.statement("SELECT ?, ?", message: "2 arguments marked for 1 given")) {
            try PostgreSQLStatement.numbered("SELECT ?, ?", arguments: 1)
        }
    }
}
