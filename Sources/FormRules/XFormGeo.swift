import Foundation

/// ODK's geo answers as text (the mapping's `geopoint`, `geotrace`, `geoshape` inputs, entered
/// without a map): a point is `lat lon [alt [acc]]`, a trace two or more points separated by
/// `;`, a shape three or more points whose last is its first.
enum XFormGeo {
    /// Whether `text` is a value of the type (`geopoint`, `geotrace`, `geoshape`).
    static func isValid(_ text: String, type: String) -> Bool {
        switch type {
        case "geopoint": return point(text) != nil
        case "geotrace": return points(text).map { $0.count >= 2 } ?? false
        case "geoshape":
            guard let points = points(text), points.count >= 4, let first = points.first else { return false }
            return first == points.last && Set(points.map { "\($0.lat) \($0.lon)" }).count >= 3
        default: return true
        }
    }

    /// What to enter, for the message of a value that is not one.
    static func example(type: String) -> String {
        switch type {
        case "geotrace":
            "two or more points separated by semicolons, each latitude and longitude, like 47.61 -122.33; 47.62 -122.35"
        case "geoshape":
            "three or more points separated by semicolons, the last the same as the first, like 47.61 -122.33; 47.62 -122.35; 47.60 -122.34; 47.61 -122.33"
        default: "latitude and longitude separated by a space, like 47.6062 -122.3321"
        }
    }

    struct Point: Equatable {
        var lat: Double
        var lon: Double
    }

    /// `lat lon [alt [acc]]`: a latitude within ±90, a longitude within ±180, altitude any
    /// number, accuracy not negative.
    static func point(_ text: String) -> Point? {
        let parts = text.split(whereSeparator: \.isWhitespace).map { Double($0) }
        guard (2...4).contains(parts.count), parts.allSatisfy({ $0?.isFinite == true }),
            let lat = parts[0], let lon = parts[1], abs(lat) <= 90, abs(lon) <= 180
        else { return nil }
        if parts.count == 4, let accuracy = parts[3], accuracy < 0 { return nil }
        return Point(lat: lat, lon: lon)
    }

    static func points(_ text: String) -> [Point]? {
        let pieces = text.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        let points = pieces.compactMap { point($0) }
        return points.count == pieces.count ? points : nil
    }
}
