// swift-tools-version: 6.1
// Benchmarks for Screenplay, in their own package so library users never build them.
// Run: cd Benchmarks && swift package benchmark

import Foundation
import PackageDescription

// The root package's traits this build enables, from SCREENPLAY_TRAITS (comma-separated; unset:
// its defaults). scripts/test.sh builds the root with `--traits $SCREENPLAY_TRAITS`, then this
// package in the same build folder: a trait is a compiler flag on every module of its package, so
// only the same traits here reuse those modules instead of compiling them all again.
let screenplayTraits: Set<Package.Dependency.Trait> = {
    let names = (Context.environment["SCREENPLAY_TRAITS"] ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
    return names.isEmpty ? [.defaults] : Set(names.filter { !$0.isEmpty }.map { Package.Dependency.Trait(name: $0) })
}()

let package = Package(
    name: "ScreenplayBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Screenplay", path: "..", traits: screenplayTraits),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
    ],
    targets: [
        .executableTarget(
            name: "ContractBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "ScreenplayContract", package: "Screenplay"),
                .product(name: "ScreenplayServer", package: "Screenplay"),
                .product(name: "ScreenplayDemo", package: "Screenplay"),
            ],
            path: "Benchmarks/ContractBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "VersioningBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "ScreenplayContract", package: "Screenplay"),
                .product(name: "ScreenplayServer", package: "Screenplay"),
                .product(name: "ScreenplayDemo", package: "Screenplay"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            path: "Benchmarks/VersioningBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "ComposerBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "ScreenplayContract", package: "Screenplay"),
                .product(name: "ScreenplayServer", package: "Screenplay"),
                .product(name: "ScreenplayComposer", package: "Screenplay"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            path: "Benchmarks/ComposerBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "ViewTreeBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "ScreenplayContract", package: "Screenplay"),
                .product(name: "ScreenplayClient", package: "Screenplay"),
            ],
            path: "Benchmarks/ViewTreeBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ]
)
