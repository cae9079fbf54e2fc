import Foundation

/// An author's colour and font taken to the page's own (``RichText/colors``, ``RichText/fonts``).
/// The page's Content-Security-Policy allows no inline style, and an author's colour is often
/// unreadable (yellow on white, light grey): each colour is taken to the nearest readable one of
/// the palette by its hue, black and white to none, as a screen of the page's design would.
enum RichTextPalette {
    /// A CSS colour (a name of the common ones, `#rgb`, `#rrggbb`, `rgb(r, g, b)`) as a palette
    /// name; nil for black, white, the unknown and the unreadable.
    static func color(_ written: String) -> String? {
        let value = written.lowercased().trimmingCharacters(in: .whitespaces)
        guard let (r, g, b) = rgb(value) else { return nil }
        let high = max(r, g, b)
        let low = min(r, g, b)
        let lightness = (high + low) / 2
        let chroma = high - low
        // Black, white and the greys between: black is the text's own colour, white unreadable.
        if chroma < 0.12 {
            return lightness < 0.2 || lightness > 0.85 ? nil : "grey"
        }
        var hue: Double
        if high == r {
            hue = 60 * ((g - b) / chroma).truncatingRemainder(dividingBy: 6)
        } else if high == g {
            hue = 60 * ((b - r) / chroma + 2)
        } else {
            hue = 60 * ((r - g) / chroma + 4)
        }
        if hue < 0 { hue += 360 }
        switch hue {
        case 15..<45: return lightness < 0.35 ? "brown" : "orange"
        case 45..<70: return lightness < 0.3 ? "brown" : "orange"
        case 70..<165: return "green"
        case 165..<195: return "teal"
        case 195..<255: return "blue"
        case 255..<310: return "purple"
        case 310..<345: return "pink"
        default: return "red"
        }
    }

    /// A `font-family` list as a generic family: the first that names one, or a well-known face
    /// taken to its family.
    static func font(_ written: String) -> String? {
        for family in written.lowercased().split(separator: ",") {
            let name = family.trimmingCharacters(in: .whitespaces).trimmingCharacters(
                in: CharacterSet(charactersIn: "\"'"))
            switch name {
            case "serif", "times", "times new roman", "georgia", "garamond", "cambria": return "serif"
            case "sans-serif", "arial", "helvetica", "verdana", "roboto", "calibri", "tahoma", "open sans", "noto sans":
                return "sans-serif"
            case "monospace", "courier", "courier new", "consolas", "menlo", "monaco": return "monospace"
            case "cursive", "comic sans ms", "brush script mt": return "cursive"
            default: continue
            }
        }
        return nil
    }

    /// Red, green and blue from 0 to 1.
    private static func rgb(_ value: String) -> (Double, Double, Double)? {
        if value.hasPrefix("#") {
            let digits = Array(value.dropFirst())
            guard digits.allSatisfy(\.isHexDigit) else { return nil }
            let channels: [String]
            switch digits.count {
            case 3, 4: channels = digits.prefix(3).map { String([$0, $0]) }
            case 6, 8: channels = stride(from: 0, to: 6, by: 2).map { String(digits[$0..<$0 + 2]) }
            default: return nil
            }
            let numbers = channels.compactMap { UInt8($0, radix: 16) }.map { Double($0) / 255 }
            return (numbers[0], numbers[1], numbers[2])
        }
        if value.hasPrefix("rgb") {
            let inside = value.drop { $0 != "(" }.dropFirst().prefix { $0 != ")" }
            let numbers = inside.split(separator: ",").prefix(3).compactMap {
                Double($0.trimmingCharacters(in: .whitespaces))
            }
            guard numbers.count == 3 else { return nil }
            return (min(numbers[0], 255) / 255, min(numbers[1], 255) / 255, min(numbers[2], 255) / 255)
        }
        return named[value].flatMap { rgb($0) }
    }

    /// The CSS colour names forms use, as CSS defines them.
    private static let named: [String: String] = [
        "black": "#000000", "white": "#ffffff", "gray": "#808080", "grey": "#808080", "silver": "#c0c0c0",
        "darkgray": "#a9a9a9", "darkgrey": "#a9a9a9", "dimgray": "#696969", "dimgrey": "#696969",
        "red": "#ff0000", "darkred": "#8b0000", "maroon": "#800000", "crimson": "#dc143c", "firebrick": "#b22222",
        "tomato": "#ff6347", "orange": "#ffa500", "darkorange": "#ff8c00", "orangered": "#ff4500",
        "gold": "#ffd700", "yellow": "#ffff00", "olive": "#808000", "brown": "#a52a2a", "chocolate": "#d2691e",
        "sienna": "#a0522d", "green": "#008000", "darkgreen": "#006400", "lime": "#00ff00",
        "limegreen": "#32cd32", "forestgreen": "#228b22", "seagreen": "#2e8b57", "teal": "#008080",
        "aqua": "#00ffff", "cyan": "#00ffff", "darkcyan": "#008b8b", "turquoise": "#40e0d0", "blue": "#0000ff",
        "navy": "#000080", "darkblue": "#00008b", "mediumblue": "#0000cd", "royalblue": "#4169e1",
        "steelblue": "#4682b4", "dodgerblue": "#1e90ff", "skyblue": "#87ceeb", "purple": "#800080",
        "indigo": "#4b0082", "violet": "#ee82ee", "darkviolet": "#9400d3", "magenta": "#ff00ff",
        "fuchsia": "#ff00ff", "pink": "#ffc0cb", "hotpink": "#ff69b4", "deeppink": "#ff1493",
    ]
}
