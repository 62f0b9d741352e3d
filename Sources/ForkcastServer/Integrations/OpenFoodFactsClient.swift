import ForkcastCore
import Foundation
import NIOCore
import Vapor

/// Talks to Open Food Facts: barcode lookups (API v2 product with `fields=`) and name search, with
/// our User-Agent, a short timeout, a client-side rate limit, and retries with backoff on 429/503.
struct OpenFoodFactsClient: Sendable {
    enum Failure: Error, Equatable {
        /// No answer (offline, timeout, connection cut).
        case unreachable(String)
        /// Open Food Facts (or our own limit) says to slow down; try again after the seconds given.
        case throttled(retryAfter: Int)
        /// An answer we cannot read.
        case badAnswer(String)

        var message: String {
            switch self {
            case .unreachable: "Open Food Facts cannot be reached right now. Your own foods still work; try the lookup again later."
            case .throttled(let seconds): "Open Food Facts is busy (or Forkcast's lookup limit is reached). Try again in \(seconds) seconds."
            case .badAnswer: "Open Food Facts sent an answer Forkcast could not read. Try again later."
            }
        }
    }

    struct Settings: Sendable {
        var baseURL: String
        var userAgent: String
        var timeout: TimeAmount
        var productsPerMinute: Int
        var searchesPerMinute: Int
        var maxRetries: Int
        /// Backoff before retry n (1-based), unless the server's Retry-After is shorter.
        var backoff: @Sendable (Int) -> Duration
    }

    static let productFields = "code,product_name,generic_name,brands,quantity,product_quantity,product_quantity_unit,serving_size,serving_quantity,nutriments,nutrition_data_per"

    let settings: Settings
    let http: any Client
    let productLimiter: RateLimiter
    let searchLimiter: RateLimiter
    let now: @Sendable () -> Date

    /// Looks a barcode up. Returns the parsed lookup and the raw answer (for the cache).
    func product(_ barcode: Barcode) async throws(Failure) -> (lookup: OpenFoodFactsProduct.Lookup, body: Data?) {
        let url = settings.baseURL + "/api/v2/product/\(barcode.digits)?fields=\(Self.productFields)"
        let (status, body) = try await get(url, limiter: productLimiter)
        if status == 404 || status == 200 {
            do {
                let lookup = try OpenFoodFactsProduct.parseProduct(body, requestedCode: barcode.digits)
                return (lookup, body)
            } catch {
                if status == 404 { return (.notFound, nil) }
                throw .badAnswer(error.reason)
            }
        }
        throw .badAnswer("HTTP \(status)")
    }

    /// Searches products by name (an explicit action: never for search-as-you-type).
    func search(_ text: String) async throws(Failure) -> [FoodDraft] {
        var allowed = CharacterSet.urlQueryAllowed
        allowed.remove(charactersIn: "&=+?#")
        let terms = text.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
        let url = settings.baseURL + "/cgi/search.pl?search_terms=\(terms)&search_simple=1&action=process&json=1&page_size=20&fields=\(Self.productFields)"
        let (status, body) = try await get(url, limiter: searchLimiter)
        guard status == 200 else { throw .badAnswer("HTTP \(status)") }
        do { return try OpenFoodFactsProduct.parseSearch(body) } catch { throw .badAnswer(error.reason) }
    }

    private func get(_ url: String, limiter: RateLimiter) async throws(Failure) -> (UInt, Data) {
        var attempt = 0
        while true {
            if let wait = await limiter.acquire(now: now()) {
                throw .throttled(retryAfter: Int(wait.rounded(.up)))
            }
            var headers = HTTPHeaders()
            headers.replaceOrAdd(name: .userAgent, value: settings.userAgent)
            headers.replaceOrAdd(name: .accept, value: "application/json")
            let response: ClientResponse
            do {
                var request = ClientRequest(method: .GET, url: URI(string: url), headers: headers)
                request.timeout = settings.timeout
                response = try await http.send(request)
            } catch {
                throw .unreachable(String(describing: error))
            }
            let status = response.status.code
            if status == 429 || status == 503 {
                attempt += 1
                let retryAfter = response.headers.first(name: .retryAfter).flatMap(Int.init)
                guard attempt <= settings.maxRetries else { throw .throttled(retryAfter: retryAfter ?? 60) }
                var delay = settings.backoff(attempt)
                if let retryAfter, .seconds(retryAfter) < delay { delay = .seconds(retryAfter) }
                try? await Task.sleep(for: delay)
                continue
            }
            let body = response.body.map { Data(buffer: $0) } ?? Data()
            return (status, body)
        }
    }
}

extension Application {
    private struct OFFLimitersKey: StorageKey { typealias Value = OpenFoodFactsLimiters }

    struct OpenFoodFactsLimiters: Sendable {
        let products: RateLimiter
        let searches: RateLimiter
    }

    /// Sets up this instance's rate limiters (once, while configuring).
    func configureOpenFoodFacts() {
        let settings = forkcastConfig.openFoodFacts
        storage[OFFLimitersKey.self] = OpenFoodFactsLimiters(
            products: RateLimiter(limit: settings.productsPerMinute, per: 60),
            searches: RateLimiter(limit: settings.searchesPerMinute, per: 60))
    }

    /// The Open Food Facts client, with this instance's rate limiters.
    var openFoodFacts: OpenFoodFactsClient {
        let limiters = storage[OFFLimitersKey.self]!
        return OpenFoodFactsClient(settings: forkcastConfig.openFoodFacts, http: client, productLimiter: limiters.products,
                                   searchLimiter: limiters.searches, now: dependencies.now)
    }
}
