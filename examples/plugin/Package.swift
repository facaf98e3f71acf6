// swift-tools-version:6.2
import PackageDescription

// An example Switchboard plugin, and a server executable with it compiled in.
let package = Package(
    name: "switchboard-example-plugin",
    platforms: [.macOS(.v14)],
    dependencies: [
        // In your own package: .package(url: "<switchboard's git URL>", from: "<version>")
        .package(name: "switchboard", path: "../.."),
    ],
    targets: [
        .target(
            name: "LinkFilter",
            dependencies: [.product(name: "SwitchboardHooks", package: "switchboard")]
        ),
        .executableTarget(
            name: "example-server",
            dependencies: ["LinkFilter", .product(name: "SwitchboardCLI", package: "switchboard")]
        ),
        .testTarget(
            name: "LinkFilterTests",
            dependencies: ["LinkFilter", .product(name: "SwitchboardHooks", package: "switchboard")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
