import ArgumentParser
import ScreenplayContract

/// `--api-version N` for the commands that describe the contract at one version (`schema`,
/// `openapi`): a version this build knows, the latest by default.
struct ContractVersionOption: ParsableArguments {
    @Option(
        name: .customLong("api-version"),
        help: "The API version (\(APIVersion.supported.lowerBound.rawValue)...\(APIVersion.supported.upperBound.rawValue)).")
    var number: Int = APIVersion.latest.rawValue

    /// The version named.
    var version: APIVersion { APIVersion(number) }

    func validate() throws {
        guard APIVersion.supported.contains(version) else {
            throw ValidationError(
                "--api-version \(number) is not a contract version; this build knows \(APIVersion.supported.lowerBound.rawValue)...\(APIVersion.supported.upperBound.rawValue)"
            )
        }
    }
}
