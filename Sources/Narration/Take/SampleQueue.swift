import Foundation

/// Hands captured sample blocks from the capture thread to the writer thread.
///
/// `push` never blocks for long (it only takes a lock), so a slow disk never stalls capture;
/// the queue grows instead. `pop` blocks until a block arrives or the queue is closed and empty.
final class SampleQueue: @unchecked Sendable {
    private let condition = NSCondition()
    private var blocks: [[Int32]] = []
    private var head = 0
    private var closed = false

    func push(_ block: [Int32]) {
        condition.lock()
        blocks.append(block)
        condition.signal()
        condition.unlock()
    }

    /// No more blocks will come.
    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }

    /// Whether no block waits now (more may come).
    var isEmpty: Bool {
        condition.lock()
        defer { condition.unlock() }
        return head == blocks.count
    }

    /// The next block, or nil once the queue is closed and drained.
    func pop() -> [Int32]? {
        condition.lock()
        defer { condition.unlock() }
        while head == blocks.count && !closed { condition.wait() }
        guard head < blocks.count else { return nil }
        let block = blocks[head]
        head += 1
        if head > 64 && head * 2 > blocks.count {
            blocks.removeFirst(head)
            head = 0
        }
        return block
    }
}
