import Testing
@testable import WebStudio

/// How many connections one address may hold: quiet ones make room for new ones; all together
/// are capped.
@Suite("The web studio's connection table")
struct ConnectionTableTests {
    @Test("over the quiet limit, the address's oldest quiet connection is closed, never one that spoke")
    func evictsOldestQuiet() {
        var table = ConnectionTable(quietLimit: 3, totalLimit: 10)
        for id in 0..<3 { #expect(table.admit(id, from: "127.0.0.1") == .init()) }
        table.spoke(0, from: "127.0.0.1")
        #expect(table.admit(3, from: "127.0.0.1") == .init())
        #expect(table.admit(4, from: "127.0.0.1") == .init(evict: [1]))
        #expect(table.admit(5, from: "127.0.0.1") == .init(evict: [2]))
        #expect(table.count(from: "127.0.0.1") == (all: 4, quiet: 3))
        // Another address has its own share.
        #expect(table.admit(6, from: "10.0.0.2") == .init())
        table.closed(3, from: "127.0.0.1")
        #expect(table.count(from: "127.0.0.1") == (all: 3, quiet: 2))
    }

    @Test("over the total limit a new connection is refused; 2,000 quiet ones leave at most the quiet limit open")
    func totalLimit() {
        var table = ConnectionTable(quietLimit: 2, totalLimit: 3)
        for id in 0..<3 {
            _ = table.admit(id, from: "a")
            table.spoke(id, from: "a")
        }
        #expect(table.admit(3, from: "a") == .init(refuse: true))
        var flood = ConnectionTable(quietLimit: 32, totalLimit: 512)
        var evicted = 0
        for id in 0..<2000 { evicted += flood.admit(id, from: "127.0.0.1").evict.count }
        #expect(evicted == 2000 - 32)
        #expect(flood.count(from: "127.0.0.1") == (all: 32, quiet: 32))
    }
}
