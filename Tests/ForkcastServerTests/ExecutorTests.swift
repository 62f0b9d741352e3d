import NIOPosix
import Testing

/// The server tests answer requests where production answers them: Swift concurrency
/// runs on SwiftNIO's event loops, as `forkcast` sets it up (Sources/forkcast/main.swift).
@Suite("The tests' executor")
struct ExecutorTests {
    @Test func asynchronousWorkRunsOnTheEventLoopsAsInProduction() async throws {
        try await withForkcast { app in
            #expect(productionExecutor)
            let onALoop = await Task.detached { MultiThreadedEventLoopGroup.currentEventLoop != nil }.value
            #expect(onALoop, "a task started anywhere runs on one of NIO's event loops")
            let response = try await app.sendRequest(.GET, "/healthz")
            #expect(response.status == .ok)
        }
    }
}
