import Foundation
@testable import Narration
import NarrationTestSupport

/// Catalogs for the stores' contract tests: the embedded SQLite file, or a schema of its own on
/// the real PostgreSQL server the tests start (`CatalogEngines`).
enum TestCatalogs {
    static func sqlite(_ folder: TemporaryFolder) throws -> Catalog {
        try Catalog(path: folder.file("catalog.sqlite").path)
    }

    static func postgreSQL(_ folder: TemporaryFolder) throws -> Catalog {
        try Catalog(engine: try CatalogEngines.make(.postgreSQL, folder: folder), name: "on the test server")
    }
}
