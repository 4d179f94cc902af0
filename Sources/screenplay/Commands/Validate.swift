import ArgumentParser
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import ScreenplayContract

/// `screenplay validate --api-version N <file-or-URL>`: decode a payload exactly as a client of
/// version N would and list every issue with its JSON path.
struct Validate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check a screen (or command result) as a client of one API version would decode it.",
        discussion: "Lists every issue with its JSON path. Exit code 0 only when the payload is clean.")

    enum Kind: String, ExpressibleByArgument, CaseIterable {
        case screen
        case result
    }

    @Option(name: .customLong("api-version"), help: "The client's API version.")
    var apiVersion: Int = APIVersion.latest.rawValue

    @Option(help: "What the payload is: screen or result.")
    var kind: Kind = .screen

    @Option(help: "Refuse payloads larger than this many bytes.")
    var maxBytes = 50 * 1024 * 1024

    @Argument(help: "A file path, '-' for standard input, or an http(s) URL.")
    var source: String

    func validate() throws {
        guard APIVersion.supported.contains(APIVersion(apiVersion)) else {
            throw ValidationError(
                "--api-version \(apiVersion) is not a contract version; this build knows \(APIVersion.supported.lowerBound.rawValue)...\(APIVersion.supported.upperBound.rawValue)"
            )
        }
    }

    func run() async throws {
        let data = try await load()
        let report = PayloadValidator(apiVersion: APIVersion(apiVersion)).validate(data, as: kind == .screen ? .screen : .commandResult)
        for problem in report.problems { print(problem) }
        print(report.summary)
        if !report.isClean { throw ExitCode(1) }
    }

    func load() async throws -> Data {
        if source == "-" {
            return FileHandle.standardInput.readDataToEndOfFile()
        }
        if source.hasPrefix("http://") || source.hasPrefix("https://") {
            let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: source), timeout: .seconds(30))
            guard response.status.code == 200 else {
                throw ValidationError("\(source) answered HTTP \(response.status.code)")
            }
            return Data(try await response.body.collect(upTo: maxBytes).readableBytesView)
        }
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: source) else {
            throw ValidationError("no file at '\(source)'")
        }
        if let size = attributes[.size] as? Int, size > maxBytes {
            throw ValidationError("'\(source)' is \(size) bytes; the limit is \(maxBytes) (--max-bytes)")
        }
        return try Data(contentsOf: URL(fileURLWithPath: source))
    }
}
