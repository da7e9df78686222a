import Hummingbird

/// Tells how long the server took over each request, as the standard `Server-Timing` header:
/// `Server-Timing: app;dur=1.234` (milliseconds, from the request reaching the router to its
/// answer being made, every check of the door included). `Scripts/bench` reads it to measure the
/// desk's server time apart from the network and the client; browsers show it in their
/// developer tools. A WebSocket upgrade and a streamed body's later bytes are not timed.
struct ServerTimingMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let clock = ContinuousClock()
        let started = clock.now
        var response = try await next(request, context)
        response.headers[.init("Server-Timing")!] = Self.value(for: started.duration(to: clock.now))
        return response
    }

    /// `app;dur=` and the duration in milliseconds with three decimals.
    static func value(for duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let microseconds = seconds * 1_000_000 + attoseconds / 1_000_000_000_000
        let milliseconds = microseconds / 1000
        let fraction = String(microseconds % 1000)
        return "app;dur=\(milliseconds).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
    }
}
