// swift-tools-version:6.2
// 6.2 for warning control (SE-0480): Forkcast's own targets treat every warning as an error (issue 22),
// without unsafeFlags, so ForkcastClient stays usable as a dependency.
import PackageDescription

/// Forkcast's own code compiles without warnings (the dependencies' are theirs).
let strict: [SwiftSetting] = [.treatAllWarnings(as: .error)]

let package = Package(
    name: "forkcast",
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [
        .executable(name: "forkcast", targets: ["forkcast"]),
        .library(name: "ForkcastCore", targets: ["ForkcastCore"]),
        .library(name: "ForkcastApp", targets: ["ForkcastApp"]),
        .library(name: "ForkcastServer", targets: ["ForkcastServer"]),
        .library(name: "ForkcastClient", targets: ["ForkcastClient"]),
        .library(name: "ForkcastContract", targets: ["ForkcastContract"]),
    ],
    dependencies: [
        .package(url: "https://github.com/vapor/vapor.git", from: "4.122.3"),
        .package(url: "https://github.com/vapor/fluent.git", from: "4.13.0"),
        .package(url: "https://github.com/vapor/fluent-sqlite-driver.git", from: "4.9.0"),
        .package(url: "https://github.com/vapor/fluent-postgres-driver.git", from: "2.14.0"),
        .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.1"),
        .package(url: "https://github.com/weichsel/ZIPFoundation.git", from: "0.9.20"),
        // Already in the graph through Vapor and PostgresNIO; named for identity tokens (RS256/ES256).
        .package(url: "https://github.com/apple/swift-crypto.git", "3.0.0"..<"5.0.0"),
        // Already in the graph through Vapor; named for the executor takeover in main.swift.
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.65.0"),
    ],
    targets: [
        // Pure domain: Foundation only, so an iOS client could link it unchanged.
        .target(name: "ForkcastCore", swiftSettings: strict),
        // API v1 defined once: every operation's path, method, parameters, body, answer and
        // statuses, as Swift types the server, ForkcastClient and the OpenAPI document all come from.
        // Foundation and ForkcastCore only.
        .target(name: "ForkcastContract", dependencies: ["ForkcastCore"], swiftSettings: strict),
        // Typed API calls and the sync engine for Swift apps: Foundation, ForkcastCore and the contract.
        .target(name: "ForkcastClient", dependencies: ["ForkcastCore", "ForkcastContract"], swiftSettings: strict),
        // The use cases: one type per change a person makes, over repository protocols. Foundation
        // and ForkcastCore only; the server implements the protocols with Fluent, the tests with
        // the in-memory fake here.
        .target(name: "ForkcastApp", dependencies: ["ForkcastCore", "ForkcastContract"], swiftSettings: strict),
        .target(
            name: "ForkcastServer",
            dependencies: [
                "ForkcastCore",
                "ForkcastApp",
                "ForkcastContract",
                .product(name: "Vapor", package: "vapor"),
                .product(name: "Fluent", package: "fluent"),
                .product(name: "FluentSQLiteDriver", package: "fluent-sqlite-driver"),
                .product(name: "FluentPostgresDriver", package: "fluent-postgres-driver"),
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
            ],
            resources: [.copy("Public"), .copy("Catalog")],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "forkcast",
            dependencies: [
                "ForkcastServer", .product(name: "Vapor", package: "vapor"),
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "ForkcastCoreTests",
            dependencies: [
                "ForkcastCore",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "ForkcastContractTests",
            dependencies: ["ForkcastContract", "ForkcastCore"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "ForkcastAppTests",
            dependencies: ["ForkcastApp", "ForkcastContract", "ForkcastCore"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "ForkcastServerTests",
            dependencies: [
                "ForkcastServer",
                "ForkcastApp",
                "ForkcastCore",
                "ForkcastClient",
                "ForkcastContract",
                .product(name: "VaporTesting", package: "vapor"),
                .product(name: "PropertyBased", package: "swift-property-based"),
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
            ],
            swiftSettings: strict
        ),
    ],
    swiftLanguageModes: [.v6]
)
