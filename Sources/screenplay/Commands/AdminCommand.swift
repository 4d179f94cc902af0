import ArgumentParser
import Foundation
import Logging
import ScreenplayAdmin
import ScreenplayDemo

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `screenplay admin`: layout admin accounts and API tokens in the demo's database.
struct AdminCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "admin", abstract: "Manage layout admins: accounts (for /admin) and API tokens (for /admin/api).",
        subcommands: [CreateUser.self, CreateToken.self, Tokens.self, RevokeToken.self])

    /// A refusal printed as one line (`Error: …`) with exit code 1, without the usage text.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    struct Location: ParsableArguments {
        @Option(name: .long, help: "The demo's data folder (as for serve).")
        var data = "./data"

        @Option(name: .long, help: "The PostgreSQL the replicas share (as for serve; default SCREENPLAY_DATABASE_URL).")
        var database: String?

        /// Opens the demo where serve would find it.
        func open(logger: Logger) async throws -> DemoDatabase.Opened {
            let place = DemoDatabase(database: database, data: data)
            if let problem = place.problem(givenAsOption: database != nil) { throw Failure(description: problem) }
            return try await place.open(logger: logger, pool: 3) { storage in
                if let storage { return try await DemoApp.open(storage: storage, logger: logger) }
                return try await DemoApp.open(dataDirectory: place.dataDirectory, logger: logger)
            }
        }
    }

    /// `screenplay admin create-user NAME`: the password is read from the terminal without echo,
    /// or as the first line of standard input when that is not a terminal (scripts, CI).
    struct CreateUser: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "create-user", abstract: "Create an admin account (password: asked for, or the first line of stdin).")

        @Argument(help: "The admin's name: 1...64 of a-z 0-9 . _ -")
        var name: String

        @OptionGroup var location: Location

        func run() async throws {
            let password: String
            if isatty(0) == 1 {
                FileHandle.standardError.write(Data("Password for \(name) (at least 12 characters): ".utf8))
                var saved = termios()
                tcgetattr(0, &saved)
                var silent = saved
                silent.c_lflag &= ~tcflag_t(ECHO)
                tcsetattr(0, TCSANOW, &silent)
                password = readLine(strippingNewline: true) ?? ""
                tcsetattr(0, TCSANOW, &saved)
                FileHandle.standardError.write(Data("\n".utf8))
            } else {
                password = readLine(strippingNewline: true) ?? ""
            }
            let opened = try await location.open(logger: Self.quietLogger())
            do {
                _ = try await opened.demo.admins.createAdmin(name: name, password: password)
                try await opened.close()
            } catch {
                try? await opened.close()
                throw Failure(description: "\(error)")
            }
            print("admin '\(name)' created; sign in at /admin")
        }

        static func quietLogger() -> Logger {
            var logger = Logger(label: "screenplay")
            logger.logLevel = .warning
            return logger
        }
    }

    /// `screenplay admin create-token NAME`: prints a new API token for the admin (shown once).
    struct CreateToken: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "create-token", abstract: "Print a new API token for an admin (for Authorization: Bearer … on /admin/api).")

        @Argument(help: "The admin the token acts as.")
        var name: String

        @Option(name: .long, help: "What the token is for (shown in listings).")
        var label = "cli"

        @OptionGroup var location: Location

        func run() async throws {
            let opened = try await location.open(logger: CreateUser.quietLogger())
            let token: String
            do {
                token = try await opened.demo.admins.createAPIToken(for: name, label: label)
                try await opened.close()
            } catch {
                try? await opened.close()
                throw Failure(description: "\(error)")
            }
            print(token)
        }
    }

    /// `screenplay admin tokens NAME`: the admin's API tokens, one a line, by id (never the token).
    struct Tokens: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "tokens", abstract: "List an admin's API tokens: id, made at, label (the tokens themselves are never stored).")

        @Argument(help: "The admin whose tokens to list.")
        var name: String

        @OptionGroup var location: Location

        func run() async throws {
            let opened = try await location.open(logger: CreateUser.quietLogger())
            let tokens: [AdminDirectory.APIToken]
            do {
                tokens = try await opened.demo.admins.apiTokens(of: name)
                try await opened.close()
            } catch {
                try? await opened.close()
                throw Failure(description: "\(error)")
            }
            guard !tokens.isEmpty else {
                print("admin '\(name)' has no API tokens")
                return
            }
            for token in tokens { print("\(token.id)  \(token.createdAt)  \(token.label)") }
        }
    }

    /// `screenplay admin revoke-token NAME ID…` (or `--all`): those tokens stop working on every
    /// replica at once (each request looks its token up in the store).
    struct RevokeToken: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "revoke-token",
            abstract: "Revoke an admin's API tokens by id (as `admin tokens NAME` lists them), or all of them with --all.")

        @Argument(help: "The admin whose tokens to revoke.")
        var name: String

        @Argument(help: "The ids of the tokens to revoke (6 or more of the hex digits listed).")
        var ids: [String] = []

        @Flag(name: .long, help: "Revoke every API token of the admin.")
        var all = false

        @OptionGroup var location: Location

        func validate() throws {
            if all && !ids.isEmpty { throw ValidationError("give token ids or --all, not both") }
            if !all && ids.isEmpty { throw ValidationError("name the tokens to revoke by id (see `screenplay admin tokens \(name)`), or pass --all") }
        }

        func run() async throws {
            let opened = try await location.open(logger: CreateUser.quietLogger())
            let revoked: [AdminDirectory.APIToken]
            do {
                revoked = try await opened.demo.admins.revokeAPITokens(of: name, ids: ids, all: all)
                try await opened.close()
            } catch {
                try? await opened.close()
                throw Failure(description: "\(error)")
            }
            guard !revoked.isEmpty else {
                print("admin '\(name)' had no API tokens to revoke")
                return
            }
            for token in revoked { print("revoked \(token.id)  \(token.createdAt)  \(token.label)") }
        }
    }
}
