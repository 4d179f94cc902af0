/// An image the client downloads, with a low-resolution stand-in it may already have.
///
/// Navigation shows the destination's header at once; when the header's image reuses the
/// `lowResURL` the previous screen already displayed (a carousel thumbnail), it is usually in the
/// HTTP cache and appears instantly while `url` loads.
public struct RemoteImage: Codable, Sendable, Hashable {
    /// The full-quality image; relative URLs resolve against the server's base URL.
    public var url: String
    /// A small variant shown while `url` loads, ideally one an earlier screen already showed.
    public var lowResURL: String?
    /// The size to lay the image out at, in points; `nil` lets the renderer decide.
    public var size: Size?
    /// What the image shows, for screen readers. Decorative images leave it `nil`.
    public var alt: String?

    /// Creates an image reference.
    public init(url: String, lowResURL: String? = nil, size: Size? = nil, alt: String? = nil) {
        self.url = url
        self.lowResURL = lowResURL
        self.size = size
        self.alt = alt
    }

    /// A width and height in points.
    public struct Size: Codable, Sendable, Hashable {
        /// Width in points.
        public var width: Double
        /// Height in points.
        public var height: Double

        /// Creates a size.
        public init(width: Double, height: Double) {
            self.width = width
            self.height = height
        }
    }

    enum CodingKeys: String, CodingKey { case url, lowResURL, size, alt }

    /// Decodes and checks both URLs against the allowed schemes (see ``LinkPolicy``).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        url = try container.decode(checkedBy: ValueRules.ResourceLink.self, forKey: .url)
        lowResURL = try container.decodeIfPresent(checkedBy: ValueRules.ResourceLink.self, forKey: .lowResURL)
        size = try container.decodeIfPresent(Size.self, forKey: .size)
        alt = try container.decodeIfPresent(String.self, forKey: .alt)
    }
}
