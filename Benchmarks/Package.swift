// swift-tools-version: 6.1
// Benchmarks for Screenplay, in their own package so library users never build them.
// Run: cd Benchmarks && swift package benchmark

import PackageDescription

let package = Package(
    name: "ScreenplayBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Screenplay", path: ".."),
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
