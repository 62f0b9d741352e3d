import ForkcastCore
import Foundation
import Vapor

/// What the server takes from the outside world, swappable in tests (isowords-style).
public struct Dependencies: Sendable {
    /// The current instant.
    public var now: @Sendable () -> Date
    /// New row ids: time-ordered (``UUID/timeOrdered(at:)``), so new rows append to their indexes.
    public var uuid: @Sendable () -> UUID
    /// The catalogue Forkcast ships, read from its files when a database lacks it (blocking).
    public var shippedCatalog: @Sendable () throws -> [CatalogFood]

    public init(now: @escaping @Sendable () -> Date = { Date() }, uuid: @escaping @Sendable () -> UUID = { UUID.timeOrdered() },
                shippedCatalog: (@Sendable () throws -> [CatalogFood])? = nil) {
        self.now = now
        self.uuid = uuid
        self.shippedCatalog = shippedCatalog ?? { try ShippedCatalog.foods() }
    }

    public static let live = Dependencies()
}

extension Application {
    private struct DependenciesKey: StorageKey { typealias Value = Dependencies }
    private struct ConfigKey: StorageKey { typealias Value = AppConfig }

    public var dependencies: Dependencies {
        get { storage[DependenciesKey.self] ?? .live }
        set { storage[DependenciesKey.self] = newValue }
    }

    public var forkcastConfig: AppConfig {
        get { configured(ConfigKey.self) }
        set { storage[ConfigKey.self] = newValue }
    }
}

extension Request {
    var dependencies: Dependencies { application.dependencies }
    var now: Date { application.dependencies.now() }
}
