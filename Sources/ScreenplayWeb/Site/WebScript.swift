import Foundation
import ScreenplayServer

/// The site's one script (`Script/screenplay.js`, a resource of this module, loaded through
/// `Bundle.module`): served by the site itself at a URL that names its content, so browsers keep
/// it for a year and a new version is a new URL. No framework, no build step.
enum WebScript {
    /// Where pages load it from.
    static let path = "/web/screenplay.js"

    /// The script, its ETag and gzip form; `nil` when the resource is missing (pages then carry
    /// no script and work as they do with scripting off).
    static let asset: EncodedBody? = {
        guard let url = Bundle.module.url(forResource: "screenplay", withExtension: "js"), let data = try? Data(contentsOf: url) else {
            return nil
        }
        return EncodedBody(bytes: Array(served(String(decoding: data, as: UTF8.self)).utf8))
    }()

    /// The script as browsers get it: without its whole-line comments and blank lines (the
    /// source explains itself to its readers; a listener's phone needs none of it: about 10 %
    /// fewer bytes gzipped). Code is never touched: a comment after code stays, and a source
    /// with a template literal spanning lines (where a line may begin with `//` as text) is
    /// served as it is.
    static func served(_ source: String) -> String {
        let lines = source.split(separator: "\n", omittingEmptySubsequences: false)
        guard !lines.contains(where: { $0.filter { $0 == "`" }.count % 2 == 1 }) else { return source }
        let kept = lines.filter { line in
            let code = line.drop { $0 == " " || $0 == "\t" }
            return !code.isEmpty && !code.hasPrefix("//")
        }
        return kept.joined(separator: "\n") + "\n"
    }

    /// The URL pages reference: the path and a version from the content's tag.
    static let versionedPath: String? = asset.map { path + "?v=" + $0.etag.filter { $0.isHexDigit || $0 == "-" }.suffix(16) }
}

/// The pages' stylesheet (``WebStylesheet``) as a file of its own: one download a browser keeps
/// (its URL names its version), instead of 11 KB in every page.
enum WebStyle {
    /// Where pages load it from.
    static let path = "/web/screenplay.css"

    /// The stylesheet, its ETag and gzip form.
    static let asset = EncodedBody(bytes: Array(WebStylesheet.css.utf8))

    /// The URL pages reference: the path and a version from the content's tag.
    static let versionedPath = path + "?v=" + asset.etag.filter { $0.isHexDigit || $0 == "-" }.suffix(16)
}
