import Foundation
import SQLEngines
import NarrationCore

/// Each chunk's `ChunkMeasure`, kept beside its row (removed with it).
struct ChunkMeasureRow: CatalogRecord {
    static let table = "chunkMeasure"
    static let key = ["chunkId"]
    var chunkId: String
    var data: Data
}

extension Catalog {
    /// The stored measures of `chunks` that this narrate can read and that still fit their chunk
    /// (same frame count); the others are left out, to be measured again.
    func measures(of chunks: [Chunk]) throws(NarrationError) -> [ChunkID: ChunkMeasure] {
        let ids = chunks.map(\.id.rawValue)
        let rows = try reading { sql in try ChunkMeasureRow.all(sql, whereColumn: "chunkId", in: ids.map { .text($0) }) }
        let frames = Dictionary(uniqueKeysWithValues: chunks.map { ($0.id, $0.frames) })
        var measures: [ChunkID: ChunkMeasure] = [:]
        for row in rows {
            let id = ChunkID(row.chunkId)
            guard let measure = ChunkMeasure(bytes: [UInt8](row.data)), measure.frames == frames[id] else { continue }
            measures[id] = measure
        }
        return measures
    }

    /// Keeps a chunk's measure; false when the chunk left the catalog meanwhile.
    @discardableResult
    func storeMeasure(_ measure: ChunkMeasure, for chunk: ChunkID) throws(NarrationError) -> Bool {
        let data = Data(measure.bytes)
        return try writing { sql in
            guard try ChunkRow.exists(sql, key: .text(chunk.rawValue)) else { return false }
            try ChunkMeasureRow(chunkId: chunk.rawValue, data: data).save(sql)
            return true
        }
    }
}
