// swift-tools-version: 6.1
// libFuzzer targets for Screenplay, in their own package: fuzz builds need sanitizer flags, and
// library users never build any of this. Run: bash Fuzz/run.sh (see Fuzz/README.md).

import Foundation
import PackageDescription

// `FUZZ_PLANTED_BUG=1 swift build …` compiles the planted bugs into the harnesses (and only into
// them, so the switch rebuilds FuzzSupport alone, not the library): run.sh --planted uses it to
// prove that each target finds a bug before its results are trusted.
let plantedBug: [SwiftSetting] = Context.environment["FUZZ_PLANTED_BUG"] == "1" ? [.define("FUZZ_PLANTED_BUG")] : []

// The root package's traits this build enables, from SCREENPLAY_TRAITS (comma-separated; unset:
// its defaults). scripts/test.sh builds the root with `--traits $SCREENPLAY_TRAITS`, then this
// package in the same build folder: a trait is a compiler flag on every module of its package, so
// only the same traits here reuse those modules instead of compiling them all again.
let screenplayTraits: Set<Package.Dependency.Trait> = {
    let names = (Context.environment["SCREENPLAY_TRAITS"] ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
    return names.isEmpty ? [.defaults] : Set(names.filter { !$0.isEmpty }.map { Package.Dependency.Trait(name: $0) })
}()

let package = Package(
    name: "ScreenplayFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Screenplay", path: "..", traits: screenplayTraits),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
    ],
    targets: [
        // The harnesses and their oracles, as a library: the fuzz executables call into it, and
        // the tests below replay the committed corpus and every regression input in a plain build.
        .target(
            name: "FuzzSupport",
            dependencies: [
                .product(name: "ScreenplayContract", package: "Screenplay"),
                .product(name: "ScreenplayServer", package: "Screenplay"),
                .product(name: "ScreenplayClient", package: "Screenplay"),
                .product(name: "ScreenplayWeb", package: "Screenplay"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: plantedBug
        ),
        // One file each: a fuzz build (`--sanitize=fuzzer`) links libFuzzer's `main`; a plain
        // debug build links SwiftPM's empty one, so `swift build` works with no flags too.
        .executableTarget(name: "FuzzScreenDecoding", dependencies: ["FuzzSupport"]),
        .executableTarget(name: "FuzzCommandPayload", dependencies: ["FuzzSupport"]),
        .executableTarget(name: "FuzzDowngrade", dependencies: ["FuzzSupport"]),
        .executableTarget(name: "FuzzJSONSyntax", dependencies: ["FuzzSupport"]),
        .executableTarget(name: "FuzzHTMLRenderer", dependencies: ["FuzzSupport"]),
        .executableTarget(name: "FuzzLiveInput", dependencies: ["FuzzSupport"]),
        .executableTarget(name: "FuzzExpressions", dependencies: ["FuzzSupport"]),
        .testTarget(name: "FuzzSupportTests", dependencies: ["FuzzSupport"]),
    ]
)
