/// Which connections the web studio keeps when one address opens many: the decision behind
/// `ConnectionGuard`, as a value.
///
/// A connection is *quiet* until a whole request head has arrived on it. Quiet connections cost a
/// descriptor and prove nothing (1,100 of them once starved the server before any request was
/// read), so each address may hold only `quietLimit` of them: a new connection over that closes
/// the address's oldest quiet one, and a real request on a fresh connection is always read. Every
/// address may hold at most `totalLimit` connections in all; one over it is refused.
///
/// Pure: `ConnectionGuard` hands it what happened and closes what it answers.
struct ConnectionTable {
    /// What to do with a connection that just opened.
    struct Admission: Equatable {
        /// Quiet connections of the same address to close to make room, oldest first.
        var evict: [Int] = []
        /// Whether to close the new connection itself (its address holds `totalLimit` already).
        var refuse = false
    }

    let quietLimit: Int
    let totalLimit: Int
    /// Per address, its connections in the order they opened, with whether each has spoken.
    private var open: [String: [(id: Int, spoke: Bool)]] = [:]

    init(quietLimit: Int, totalLimit: Int) {
        precondition(quietLimit >= 1 && totalLimit >= quietLimit)
        self.quietLimit = quietLimit
        self.totalLimit = totalLimit
    }

    /// Connection `id` opened from `address`.
    mutating func admit(_ id: Int, from address: String) -> Admission {
        var connections = open[address] ?? []
        var admission = Admission()
        let quiet = connections.filter { !$0.spoke }.map(\.id)
        if quiet.count >= quietLimit {
            admission.evict = Array(quiet.prefix(quiet.count - quietLimit + 1))
            connections.removeAll { admission.evict.contains($0.id) }
        }
        if connections.count >= totalLimit {
            admission.refuse = true
        } else {
            connections.append((id, false))
        }
        open[address] = connections
        return admission
    }

    /// A whole request head arrived on connection `id`: it is no longer evicted for being quiet.
    mutating func spoke(_ id: Int, from address: String) {
        guard let index = open[address]?.firstIndex(where: { $0.id == id }) else { return }
        open[address]?[index].spoke = true
    }

    /// Connection `id` closed.
    mutating func closed(_ id: Int, from address: String) {
        open[address]?.removeAll { $0.id == id }
        if open[address]?.isEmpty == true { open[address] = nil }
    }

    /// How many connections `address` holds, and how many of them are quiet.
    func count(from address: String) -> (all: Int, quiet: Int) {
        let connections = open[address] ?? []
        return (connections.count, connections.count { !$0.spoke })
    }
}
