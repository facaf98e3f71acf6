// swift-tools-version:6.2
import PackageDescription

let package = Package(
    name: "switchboard",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "SwitchboardServer", targets: ["SwitchboardServer"]),
        .library(name: "SwitchboardHooks", targets: ["SwitchboardHooks"]),
        .library(name: "SwitchboardCLI", targets: ["SwitchboardCLI"]),
        .executable(name: "switchboard", targets: ["switchboard"]),
    ],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket.git", from: "2.8.1"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-protobuf.git", from: "1.39.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/jpsim/Yams.git", from: "6.2.2"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-nio-http2.git", from: "1.46.0"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
    ],
    targets: [
        .target(name: "SwitchboardJSON"),
        .target(name: "SwitchboardData", dependencies: ["SwitchboardJSON", "SwitchboardArchives"]),
        // zlib is the system's own library (pkg-config zlib, apt zlib1g-dev), linked as
        // JavaScriptCore is below: not a package dependency, nothing is fetched for it.
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .target(name: "SwitchboardArchives", dependencies: ["CZlib"]),
        .target(name: "SwitchboardFuzz", dependencies: ["SwitchboardWire", "SwitchboardJSON"]),
        .target(name: "CLibFuzzer"),
        .target(name: "CSpawn"),
        .target(name: "CHostGate"),
        .target(name: "CMalloc"),
        .executableTarget(name: "switchboard-fuzz", dependencies: ["SwitchboardFuzz", "CLibFuzzer"]),
        .systemLibrary(
            name: "CJavaScriptCore",
            pkgConfig: "javascriptcoregtk-4.1",
            providers: [.apt(["libjavascriptcoregtk-4.1-dev"])]
        ),
        .target(
            name: "SwitchboardJS",
            dependencies: [
                "CJavaScriptCore",
                "CHostGate",
                "CSpawn",
                "SwitchboardHooks",
                "SwitchboardJSON",
                "SwitchboardData",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .target(
            name: "SwitchboardWire",
            dependencies: [.product(name: "SwiftProtobuf", package: "swift-protobuf")],
            exclude: ["messages.proto"]
        ),
        .target(
            name: "SwitchboardCore",
            dependencies: [
                "SwitchboardWire",
                "SwitchboardJSON",
                "SwitchboardData",
                "SwitchboardHooks",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Metrics", package: "swift-metrics"),
            ]
        ),
        .target(
            name: "SwitchboardHooks",
            dependencies: [
                "SwitchboardJSON",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
            ]
        ),
        .target(
            name: "SwitchboardStore",
            dependencies: [
                "SwitchboardCore",
                "SwitchboardJSON",
                "SwitchboardData",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Metrics", package: "swift-metrics"),
            ]
        ),
        .target(
            name: "SwitchboardServer",
            dependencies: [
                "CMalloc",
                "SwitchboardCore",
                "SwitchboardData",
                "SwitchboardHooks",
                "SwitchboardJS",
                "SwitchboardStore",
                "SwitchboardWire",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Yams", package: "Yams"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                // RS256, for Google's OAuth assertion (FCM).
                .product(name: "CryptoExtras", package: "swift-crypto"),
            ]
        ),
        .target(
            name: "SwitchboardCLI",
            dependencies: [
                "SwitchboardServer",
                "SwitchboardHooks",
                "SwitchboardJS",
                "SwitchboardJSON",
                "SwitchboardData",
                "SwitchboardArchives",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(name: "switchboard", dependencies: ["SwitchboardCLI"]),
        .executableTarget(
            name: "switchboard-bench",
            dependencies: [
                "SwitchboardCLI",
                "SwitchboardHooks",
                "SwitchboardJS",
                "SwitchboardServer",
                "SwitchboardStore",
                "SwitchboardData",
                "SwitchboardWire",
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(
            name: "SwitchboardTests",
            dependencies: [
                "SwitchboardServer",
                "SwitchboardCLI",
                "SwitchboardCore",
                "SwitchboardStore",
                "SwitchboardHooks",
                "SwitchboardJS",
                "SwitchboardJSON",
                "SwitchboardData",
                "SwitchboardArchives",
                "SwitchboardWire",
                "SwitchboardFuzz",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
