import Foundation
import Testing

/// What the CLI does with an https:// address and a database URL, in the build being tested.
///
/// The package's traits are compiler flags on every module, this target's too: a plain `swift
/// test` checks the default CLI (what `swift run screenplay` builds), which must refuse both with
/// the one step that builds the missing part in; scripts/test.sh builds with `--traits postgres`
/// (the driver built in, `https://` still refused) and `--traits postgres,https` checks both built in.
@Suite("Command line: what the postgres and https traits add")
struct CommandLineTraitTests {
    /// Nothing listens on port 1 on loopback (binding it takes root, and no test does): a
    /// connection there is refused at once.
    static let refusedRoot = "127.0.0.1:1"

    @Test("render of an https:// address uses HTTPS when built in, else says how to build it in without connecting")
    func renderHTTPS() async throws {
        #if https
        // Built in: AsyncHTTPClient tries TLS with a server that speaks plain HTTP, and the
        // failure is the handshake's (a refused port would be retried until the 30 s deadline).
        try await FaultServer.run { root, _ in
            let address = "https://" + root.absoluteString.dropFirst("http://".count) + "api/v5/screens/feed"
            let outcome = try await runCLI(["render", address])
            #expect(outcome.status == 1, "\(outcome.output)")
            #expect(!outcome.output.contains("--traits https"), "\(outcome.output)")
            #expect(outcome.output.contains("the screen failed to load"), "\(outcome.output)")
        }
        #else
        let outcome = try await runCLI(["render", "https://\(Self.refusedRoot)/api/v5/screens/home"])
        #expect(outcome.status == 1, "\(outcome.output)")
        #expect(
            outcome.output.contains("https://\(Self.refusedRoot)/ is an https:// address, and this build of screenplay has no TLS stack"),
            "\(outcome.output)")
        #expect(outcome.output.contains("swift run --traits https screenplay render URL"), "\(outcome.output)")
        #endif
    }

    @Test("render of a plain http:// address that refuses the connection says so, naming the server")
    func renderRefused() async throws {
        let outcome = try await runCLI(["render", "http://\(Self.refusedRoot)/api/v5/screens/home"])
        #expect(outcome.status == 1, "\(outcome.output)")
        #expect(outcome.output.contains("could not connect to \(Self.refusedRoot): connection refused"), "\(outcome.output)")
    }

    @Test("serve --database needs the postgres trait: built in, the URL is read; else a refusal naming the step, before anything starts")
    func serveDatabase() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("screenplay-trait-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: data) }
        let outcome = try await runCLI(["serve", "--port", "0", "--data", data, "--promotions", "off", "--database", "mysql://nope"])
        #expect(outcome.status != 0, "\(outcome.output)")
        #if postgres
        // Built in: the URL itself is what is wrong.
        #expect(outcome.output.contains("--database:") && !outcome.output.contains("--traits postgres"), "\(outcome.output)")
        #else
        #expect(outcome.output.contains("--database names a PostgreSQL database, but this build of screenplay has no PostgreSQL driver"))
        #expect(outcome.output.contains("swift run --traits postgres screenplay serve --database URL"), "\(outcome.output)")
        #endif
        #expect(!FileManager.default.fileExists(atPath: data), "nothing may start on SQLite instead")
    }
}
