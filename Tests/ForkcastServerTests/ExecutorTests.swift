import NIOPosix
import Testing

/// The tests run where production runs: Swift concurrency's jobs on NIO's event loops.
@Suite("The tests' executor is production's")
struct ExecutorTests {
    @Test func tasksRunOnNIOsEventLoopsAsUnderForkcastServe() async throws {
        try await withForkcast { _ in
            let onLoop = await Task.detached { MultiThreadedEventLoopGroup.currentEventLoop != nil }.value
            #expect(onLoop, "a task's job runs on one of NIO's event loops")
        }
    }
}
