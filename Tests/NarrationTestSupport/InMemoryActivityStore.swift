public import Narration
public import NarrationCore
import Synchronization

/// An `AccountActivityStore` in memory, beside `InMemoryAccountStore`: for fast tests of hours,
/// and to keep the protocol honest. It knows the accounts from `accounts`, so that it refuses a
/// record of an unknown account as the catalog does.
public final class InMemoryActivityStore: AccountActivityStore {
    private let accounts: any AccountStore
    private let records = Mutex<[ActivityRecord]>([])

    public init(accounts: any AccountStore) { self.accounts = accounts }

    public func appendActivity(_ record: ActivityRecord) throws(NarrationError) {
        guard try accounts.account(named: record.account) != nil else { throw .unknownAccount(record.account.rawValue) }
        records.withLock { $0.append(record) }
    }

    public func activity(of account: AccountName?) throws(NarrationError) -> [ActivityRecord] {
        records.withLock { records in records.filter { account == nil || $0.account == account } }
    }
}
