import NIOCore
import NIOPosix

/// An event loop and an SQLite thread that serve one purpose and nothing else (the append
/// connection's inserts, the checkpointer's checkpoints), made once for the whole process.
struct OwnThread: Sendable {
    let loop: any EventLoop
    let threads: NIOThreadPool

    static func make() -> OwnThread {
        let pool = NIOThreadPool(numberOfThreads: 1)
        pool.start()
        return OwnThread(loop: MultiThreadedEventLoopGroup(numberOfThreads: 1).next(), threads: pool)
    }
}
