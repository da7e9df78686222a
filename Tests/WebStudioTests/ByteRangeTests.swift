import Testing
@testable import WebStudio

@Suite("Range headers for the article's audio")
struct ByteRangeTests {
    @Test("one range in each of its three forms; several, malformed or absent ranges give the whole file", arguments: [
        ("bytes=0-99", ByteRange.Parsed.part(0..<100)),
        ("bytes=100-", .part(100..<1_000)),
        ("bytes=-10", .part(990..<1_000)),
        ("bytes=990-5000", .part(990..<1_000)),
        ("bytes=1000-", .unsatisfiable),
        ("bytes=0-1,5-6", .whole),
        ("bytes=9-3", .whole),
        ("items=0-3", .whole),
        ("bytes=x-3", .whole),
        ("bytes=0-9223372036854775807", .part(0..<1_000)),
        ("bytes=0-18446744073709551616", .part(0..<1_000)),
        ("bytes=9223372036854775807-", .unsatisfiable),
        ("bytes=-9223372036854775807", .part(0..<1_000)),
        ("bytes=-18446744073709551616", .part(0..<1_000)),
        ("bytes=+5-9", .whole),
        ("bytes=-0", .whole),
        ("bytes=--5", .whole),
        ("bytes=5--9", .whole),
        ("bytes=1e3-", .whole),
        ("bytes=-", .whole),
        ("bytes=", .whole),
    ])
    func parse(header: String, expected: ByteRange.Parsed) {
        #expect(ByteRange.parse(header, size: 1_000) == expected)
    }

    @Test("no header is the whole file")
    func absent() {
        #expect(ByteRange.parse(nil, size: 10) == .whole)
    }
}
