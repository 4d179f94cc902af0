import Foundation
public import HTTPTypes
public import ScreenplayServer

/// One JavaScript module a site serves, at a URL that names its content: browsers keep it for a
/// year, and a new version is a new URL. No framework, no build step: the source is the module,
/// with two changes made when it is loaded.
///
/// - Its relative imports (`from "./core.js"`) name the versioned URL of the module they mean, so
///   a new version of an imported module is a new URL for its importers too.
/// - Whole-line comments, blank lines and indentation are left out (the source explains itself to
///   its readers; a listener's phone needs none of it). Code is never touched otherwise: a comment
///   after code stays, and a source with a template literal spanning lines (where a line may begin
///   with `//`, or spaces, as text) is served as it is.
///
/// The listener's pages load ``WebSite/scriptPath`` (the site's module and the shared one it
/// imports); the layout admin serves its editor module the same way, on top of the shared one.
public struct ScriptModule: Sendable {
    /// Where it is served, without its version (`/web/site.js`).
    public let path: String
    /// The served text, its ETag and gzip form.
    public let asset: EncodedBody
    /// The URL pages reference: ``path`` and a version from the content's tag.
    public let versionedPath: String
    /// The versioned URLs of the modules it imports, and of theirs, nearest first: what a page
    /// preloads (`<link rel="modulepreload">`) so the imports load beside it, not after it.
    public let imports: [String]

    /// The module `source` served at `path`, importing `dependencies` (each named in the source as
    /// `"./<last path component>"`).
    public init(path: String, source: String, dependencies: [ScriptModule] = []) {
        var text = Self.served(source)
        for dependency in dependencies {
            let name = "\"./" + (dependency.path.split(separator: "/").last.map(String.init) ?? dependency.path) + "\""
            text = text.replacingOccurrences(of: name, with: "\"" + dependency.versionedPath + "\"")
        }
        self.path = path
        asset = EncodedBody(bytes: Array(text.utf8))
        versionedPath = path + "?v=" + asset.etag.filter { $0.isHexDigit || $0 == "-" }.suffix(16)
        var imports: [String] = []
        for dependency in dependencies {
            for url in [dependency.versionedPath] + dependency.imports where !imports.contains(url) { imports.append(url) }
        }
        self.imports = imports
    }

    /// The source as browsers get it (see the type's summary).
    static func served(_ source: String) -> String {
        let lines = source.split(separator: "\n", omittingEmptySubsequences: false)
        guard !lines.contains(where: { $0.filter { $0 == "`" }.count % 2 == 1 }) else { return source }
        let kept = lines.map { $0.drop { $0 == " " || $0 == "\t" } }.filter { !$0.isEmpty && !$0.hasPrefix("//") }
        return kept.joined(separator: "\n") + "\n"
    }

    /// The answer to a `GET` or `HEAD` of the module: gzip when the client takes it, cached for a
    /// year, a `304` for the tag it holds.
    public func response(to request: HTTPRequest) -> (head: HTTPResponse, body: [UInt8]) {
        Self.immutable(asset, type: "text/javascript; charset=utf-8", for: request)
    }

    /// The answer for an asset whose URL names its version (a script, the stylesheet).
    static func immutable(_ asset: EncodedBody, type: String, for request: HTTPRequest) -> (head: HTTPResponse, body: [UInt8]) {
        let sent = asset.representation(acceptEncoding: request.headerFields[.acceptEncoding])
        var headers: HTTPFields = [
            .contentType: type, .cacheControl: "public, max-age=31536000, immutable", .eTag: sent.etag, .vary: "Accept-Encoding",
        ]
        headers[ScreenplayService.contentTypeOptions] = "nosniff"
        if sent.gzip { headers[.contentEncoding] = "gzip" }
        if let condition = request.headerFields[.ifNoneMatch], asset.matches(ifNoneMatch: condition) {
            headers[.contentEncoding] = nil
            return (HTTPResponse(status: .notModified, headerFields: headers), [])
        }
        return (HTTPResponse(status: .ok, headerFields: headers), sent.bytes)
    }
}
