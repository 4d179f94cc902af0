import ArgumentParser
import Foundation
import ScreenplayContract
import ScreenplayContractTools

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

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
            return try await download()
        }
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: source) else {
            throw ValidationError("no file at '\(source)'")
        }
        if let size = attributes[.size] as? Int, size > maxBytes {
            throw ValidationError("'\(source)' is \(size) bytes; the limit is \(maxBytes) (--max-bytes)")
        }
        return try Data(contentsOf: URL(fileURLWithPath: source))
    }

    /// Fetches the payload with Foundation's HTTP client, so the CLI builds no HTTP client and TLS
    /// stack of its own; a server that says the body is over the limit is refused before reading it.
    func download() async throws -> Data {
        guard let url = URL(string: source) else { throw ValidationError("'\(source)' is not a URL") }
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 30
        configuration.urlCache = nil
        let session = URLSession(configuration: configuration)
        defer { session.finishTasksAndInvalidate() }
        let limit = maxBytes
        let (data, response): (Data, URLResponse) = try await withCheckedThrowingContinuation { continuation in
            session.dataTask(with: url) { data, response, error in
                if let error {
                    continuation.resume(throwing: ValidationError("\(url.absoluteString): \(error.localizedDescription)"))
                } else if let data, let response {
                    continuation.resume(returning: (data, response))
                } else {
                    continuation.resume(throwing: ValidationError("\(url.absoluteString): no response"))
                }
            }.resume()
        }
        guard let http = response as? HTTPURLResponse, http.statusCode == 200 else {
            throw ValidationError("\(source) answered HTTP \((response as? HTTPURLResponse)?.statusCode ?? 0)")
        }
        guard data.count <= limit else { throw ValidationError("\(source) sent \(data.count) bytes; the limit is \(limit) (--max-bytes)") }
        return data
    }
}
