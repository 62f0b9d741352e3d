import Synchronization
import Vapor

/// A graceful stop: on SIGTERM or Ctrl-C the server stops taking requests, and the databases close
/// only once every request it took has been answered (for at most `limit`).
///
/// Vapor shuts its server and Fluent's databases down in no set order. Under load, a request then
/// asked for a database that was already gone, and the process crashed instead of answering it.
final class InFlightRequests: Sendable {
    private let running = Atomic<Int>(0)
    let limit: Duration

    init(limit: Duration = .seconds(10)) {
        self.limit = limit
    }

    /// Requests taken and not yet answered.
    var count: Int { running.load(ordering: .relaxed) }

    /// Counts each request from the moment it is taken until its answer is ready (the outermost middleware).
    struct Middleware: Vapor.Middleware {
        let requests: InFlightRequests

        func respond(to request: Request, chainingTo next: any Responder) -> EventLoopFuture<Response> {
            requests.running.add(1, ordering: .relaxed)
            let answer = next.respond(to: request)
            answer.whenComplete { _ in requests.running.subtract(1, ordering: .relaxed) }
            return answer
        }
    }

    /// Stops the server, then waits for the requests it took. Registered after every other handler
    /// of `configure`, so it runs before they close what requests use.
    struct Draining: LifecycleHandler {
        let requests: InFlightRequests

        func shutdownAsync(_ application: Application) async {
            application.logger.notice("stopping: no new requests; waiting for \(requests.count) to be answered")
            // Open event streams answer until they are ended: end them first, or the server waits
            // for their connections.
            await application.syncEvents.finishAll()
            await application.server.shutdown()
            let deadline = ContinuousClock.now + requests.limit
            while requests.count > 0, ContinuousClock.now < deadline {
                try? await Task.sleep(for: .milliseconds(10))
            }
            if requests.count > 0 {
                application.logger.warning("stopping with \(requests.count) requests still unanswered after \(requests.limit)")
            } else {
                application.logger.notice("stopped: every request taken was answered")
            }
        }
    }
}
