import Glibc

/// A TCP port on the loopback that is listened on and never served: the kernel completes each
/// connection into the listen backlog, so a client connects and sends its request, and nobody
/// ever reads it or answers. Storage that never answers, for tests of answer timeouts.
public final class SilentListener {
    public let port: Int
    private let descriptor: CInt

    public init() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) == 0 && getsockname(listener, $0, &length) == 0 }
        }
        descriptor = listener
        guard bound, listen(listener, 16) == 0 else { throw FixtureError("cannot listen on the loopback: \(String(cString: strerror(errno)))") }
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit { close(descriptor) }
}
