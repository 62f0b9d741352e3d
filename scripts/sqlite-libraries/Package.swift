// swift-tools-version:6.2
// Issue 22: GRDB against SQLiteNIO (what Forkcast's SQLite paths are built on), measured for the
// writes Forkcast makes (a diary entry and its change-feed row, durably) and a day's read.
// Not part of Forkcast's build: `bash scripts/sqlite-libraries/run.sh` builds and runs it.
import PackageDescription

let package = Package(
    name: "sqlite-libraries",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/vapor/sqlite-nio.git", from: "1.13.2"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.65.0"),
    ],
    targets: [
        .executableTarget(name: "SQLiteLibraries", dependencies: [
            .product(name: "GRDB", package: "GRDB.swift"),
            .product(name: "SQLiteNIO", package: "sqlite-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
        ]),
    ]
)
