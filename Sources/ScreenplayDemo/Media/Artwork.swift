import ScreenplayWeb

/// The demo's pictures, drawn as SVG from what they show and a seed (the image's path), so the
/// same thing always gets the same picture and the catalog reads as a music app with no image
/// files: a composer's portrait card, a work's cover (a stave with its notes), a recording's
/// sleeve (a record's grooves), a playlist's mosaic, a city's badge.
///
/// Every picture has a placeholder (`…-low.svg`): the same colours and shapes without text or
/// detail, a few hundred bytes, shown while the full picture loads.
enum Artwork: Sendable, Equatable {
    case composer(name: String, period: String)
    case work(title: String, composer: String)
    case recording(performers: String, year: Int)
    case playlist(number: Int64)
    case city(name: String)

    /// The full picture, 600 × 600.
    func svg(seed: String) -> String {
        let palette = Palette(seed: seed)
        return Self.frame(size: 600, palette: palette, body: background(palette) + detail(palette, seed: seed) + text(palette))
    }

    /// The placeholder, 96 × 96: the background and the large shapes, no text.
    func placeholder(seed: String) -> String {
        let palette = Palette(seed: seed)
        return Self.frame(size: 96, palette: palette, body: background(palette))
    }

    // MARK: Drawing

    /// Two hues a seed picks (FNV-1a of its bytes), the second a third of the wheel away.
    struct Palette {
        let hue: Int
        let second: Int

        init(seed: String) {
            var hash: UInt64 = 1_469_598_103_934_665_603
            for byte in seed.utf8 { hash = (hash ^ UInt64(byte)) &* 1_099_511_628_211 }
            hue = Int(hash % 360)
            second = (hue + 100 + Int((hash >> 20) % 60)) % 360
        }

        func color(_ hue: Int, saturation: Int = 55, lightness: Int = 42) -> String { "hsl(\(hue),\(saturation)%,\(lightness)%)" }
    }

    static func frame(size: Int, palette: Palette, body: String) -> String {
        """
        <svg xmlns="http://www.w3.org/2000/svg" width="\(size)" height="\(size)" viewBox="0 0 100 100">\
        <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="\(palette.color(palette.hue, lightness: 46))"/>\
        <stop offset="1" stop-color="\(palette.color(palette.second, saturation: 50, lightness: 30))"/></linearGradient></defs>\
        \(body)</svg>
        """
    }

    /// The large shapes: what the placeholder shows too.
    func background(_ palette: Palette) -> String {
        let fill = ##"<rect width="100" height="100" fill="url(#g)"/>"##
        switch self {
        case .composer:
            return fill + ##"<circle cx="50" cy="44" r="30" fill="#fff" opacity="0.14"/>"##
        case .work:
            return fill + ##"<rect x="0" y="22" width="100" height="34" fill="#fff" opacity="0.1"/>"##
        case .recording:
            return fill + ##"<circle cx="50" cy="46" r="34" fill="#111" opacity="0.55"/>"##
        case .playlist:
            let hues = [palette.hue, palette.second, (palette.hue + 50) % 360, (palette.second + 50) % 360]
            return zip([(0, 0), (50, 0), (0, 50), (50, 50)], hues).map { corner, hue in
                ##"<rect x="\##(corner.0)" y="\##(corner.1)" width="50" height="50" fill="\##(palette.color(hue, lightness: 40))"/>"##
            }.joined()
        case .city:
            return fill + ##"<circle cx="82" cy="18" r="30" fill="#fff" opacity="0.2"/>"##
        }
    }

    /// What only the full picture has: a stave's notes, a record's grooves, a ring.
    func detail(_ palette: Palette, seed: String) -> String {
        var generator = SeededNumbers(seed: seed)
        switch self {
        case .composer:
            return ##"<circle cx="50" cy="44" r="27" fill="none" stroke="#fff" stroke-width="0.6" opacity="0.6"/>"##
        case .work:
            var stave = (0..<5).map { ##"<line x1="8" x2="92" y1="\##(28 + $0 * 5)" y2="\##(28 + $0 * 5)" stroke="#fff" stroke-width="0.5" opacity="0.7"/>"## }
                .joined()
            for index in 0..<6 {
                let x = 18 + index * 12
                let y = 28 + Double(generator.next(upTo: 9)) * 2.5
                stave += ##"<ellipse cx="\##(x)" cy="\##(y)" rx="2.6" ry="1.9" fill="#fff" transform="rotate(-20 \##(x) \##(y))"/>"##
                stave += ##"<line x1="\##(Double(x) + 2.3)" x2="\##(Double(x) + 2.3)" y1="\##(y)" y2="\##(y - 11)" stroke="#fff" stroke-width="0.7"/>"##
            }
            return stave
        case .recording:
            var grooves = ""
            for radius in stride(from: 31, through: 15, by: -4) {
                grooves += ##"<circle cx="50" cy="46" r="\##(radius)" fill="none" stroke="#fff" stroke-width="0.3" opacity="0.35"/>"##
            }
            return grooves + ##"<circle cx="50" cy="46" r="10" fill="\##(palette.color(palette.second, saturation: 65, lightness: 55))"/>"##
                + ##"<circle cx="50" cy="46" r="1.4" fill="#111"/>"##
        case .playlist:
            return ##"<circle cx="50" cy="50" r="20" fill="#000" opacity="0.25"/>"##
        case .city:
            return ""
        }
    }

    /// The words: initials, a title and a name, as fits each kind.
    func text(_ palette: Palette) -> String {
        switch self {
        case .composer(let name, let period):
            return Self.label(Self.initials(name), x: 50, y: 53, size: 24) + Self.label(Self.short(period, 18), x: 50, y: 90, size: 7, opacity: 0.85)
        case .work(let title, let composer):
            return Self.label(Self.short(title, 20), x: 50, y: 74, size: 8.5, weight: "bold")
                + Self.label(Self.short(Self.surname(composer), 22), x: 50, y: 86, size: 6.5, opacity: 0.85)
        case .recording(let performers, let year):
            let first = performers.split(separator: ",").first.map(String.init) ?? performers
            return Self.label(Self.short(first, 24), x: 50, y: 90, size: 7, weight: "bold") + Self.label(String(year), x: 50, y: 49, size: 4.5)
        case .playlist:
            return Self.label("♪", x: 50, y: 59, size: 24)
        case .city(let name):
            return Self.label(String(name.prefix(2)), x: 50, y: 62, size: 34)
        }
    }

    static func label(_ text: String, x: Double, y: Double, size: Double, weight: String = "normal", opacity: Double = 1) -> String {
        ##"<text x="\##(x)" y="\##(y)" font-family="Georgia,serif" font-size="\##(size)" font-weight="\##(weight)" text-anchor="middle" fill="#fff" opacity="\##(opacity)">\##(HTML.escape(text))</text>"##
    }

    /// The first letters of the first and last capitalized words ("Johann Sebastian Bach": JB).
    static func initials(_ name: String) -> String {
        let words = name.split(separator: " ").filter { $0.first?.isUppercase == true }
        let letters = [words.first, words.count > 1 ? words.last : nil].compactMap { $0?.first }
        return String(letters)
    }

    /// A name's last word ("Bach"), or the name.
    static func surname(_ name: String) -> String {
        name.split(separator: " ").last.map(String.init) ?? name
    }

    /// `text` cut to `limit` characters, with an ellipsis when cut.
    static func short(_ text: String, _ limit: Int) -> String {
        text.count <= limit ? text : String(text.prefix(limit - 1)) + "…"
    }
}

/// A small deterministic generator (splitmix64) for the pictures' details.
struct SeededNumbers {
    var state: UInt64

    init(seed: String) {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in seed.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        state = hash
    }

    /// The next number in `0..<bound`.
    mutating func next(upTo bound: Int) -> Int {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return Int((z ^ (z >> 31)) % UInt64(max(bound, 1)))
    }
}
