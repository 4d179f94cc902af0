// swift-tools-version: 6.1
// The tests of Screenplay's AsyncHTTPClient adapters (the client transport and the remote widget
// provider transport), in a package of their own: the main test build then compiles no HTTPS
// client and no second TLS stack, and these compile beside the browser flows instead, on the
// root's modules (scripts/test.sh builds and runs every package in the repository).
// Run: swift test --package-path HTTPSAdapters

import Foundation
import PackageDescription

// The root package's traits this build enables, from SCREENPLAY_TRAITS (comma-separated; unset:
// its defaults), as in Benchmarks/ and Fuzz/: only the same traits as the root's build reuse its
// modules instead of compiling them all again.
let screenplayTraits: Set<Package.Dependency.Trait> = {
    let names = (Context.environment["SCREENPLAY_TRAITS"] ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
    return names.isEmpty ? [.defaults] : Set(names.filter { !$0.isEmpty }.map { Package.Dependency.Trait(name: $0) })
}()

let package = Package(
    name: "ScreenplayHTTPSAdapters",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Screenplay", path: "..", traits: screenplayTraits),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1", traits: ["FullFoundation"]),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
    ],
    targets: [
        .testTarget(
            name: "HTTPSAdapterTests",
            dependencies: [
                .product(name: "ScreenplayClient", package: "Screenplay"),
                .product(name: "ScreenplayClientAsyncHTTPClient", package: "Screenplay"),
                .product(name: "ScreenplayComposer", package: "Screenplay"),
                .product(name: "ScreenplayComposerAsyncHTTPClient", package: "Screenplay"),
                .product(name: "ScreenplayContract", package: "Screenplay"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        )
    ]
)
