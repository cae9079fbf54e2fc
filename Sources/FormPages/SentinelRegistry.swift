/// Hands out sentinels while templates render once, remembers which hole each stands for, and
/// splits the rendered output at them: a plan's slots (``SlotRegistry``) or a fragment's parts.
///
/// A sentinel is `U+E000`, the registry's random nonce, the hole's number and `U+E001`. Mustache's
/// escaping leaves all of these alone, imported text has the two private-use characters stripped
/// (``PageText``), and the nonce differs per registry, so nothing else can look like a hole.
final class SentinelRegistry<Hole: Hashable & Sendable> {
    let nonce: String
    private(set) var holes: [Hole] = []
    private var numbers: [Hole: Int] = [:]

    init(nonce: String = SentinelRegistry.makeNonce()) {
        self.nonce = nonce
    }

    /// The sentinel for a hole; the same hole always gets the same sentinel.
    func sentinel(_ hole: Hole) -> String {
        let number: Int
        if let known = numbers[hole] {
            number = known
        } else {
            number = holes.count
            holes.append(hole)
            numbers[hole] = number
        }
        return "\u{E000}\(nonce)\(number)\u{E001}"
    }

    /// Splits rendered output at this registry's sentinels.
    func split(_ rendered: String) throws(RenderPlanError) -> [Chunk<Hole>] {
        let bytes = Array(rendered.utf8)
        let open = Array(String(HTML.sentinelOpen).utf8) + Array(nonce.utf8)
        let close = Array(String(HTML.sentinelClose).utf8)
        var chunks: [Chunk<Hole>] = []
        var chunkStart = 0
        var index = 0
        while index < bytes.count {
            guard bytes[index] == open[0], bytes[index...].starts(with: open) else {
                index += 1
                continue
            }
            var cursor = index + open.count
            var number = 0
            var digits = 0
            while cursor < bytes.count, bytes[cursor] >= UInt8(ascii: "0"), bytes[cursor] <= UInt8(ascii: "9"),
                digits < 9
            {
                number = number * 10 + Int(bytes[cursor] - UInt8(ascii: "0"))
                cursor += 1
                digits += 1
            }
            guard digits > 0, bytes[cursor...].starts(with: close), number < holes.count else {
                throw RenderPlanError.malformedSentinel(offset: index)
            }
            if chunkStart < index { chunks.append(.bytes(Array(bytes[chunkStart..<index]))) }
            chunks.append(.hole(holes[number]))
            index = cursor + close.count
            chunkStart = index
        }
        if chunkStart < bytes.count { chunks.append(.bytes(Array(bytes[chunkStart...]))) }
        // A sentinel character left over means escaping or a template mangled a sentinel.
        let stray = String(HTML.sentinelOpen).utf8.first!
        for case .bytes(let chunk) in chunks where chunk.contains(stray) {
            if String(decoding: chunk, as: UTF8.self).unicodeScalars.contains(where: {
                $0 == HTML.sentinelOpen || $0 == HTML.sentinelClose
            }) {
                throw RenderPlanError.strayCharacter
            }
        }
        return chunks
    }
}

extension SentinelRegistry {
    static func makeNonce() -> String {
        var generator = SystemRandomNumberGenerator()
        let letters = Array("abcdefghijklmnopqrstuvwxyz")
        return String((0..<12).map { _ in letters[Int(generator.next() % UInt64(letters.count))] })
    }
}

/// A piece of rendered output: static bytes, or a hole filled per request.
enum Chunk<Hole: Sendable>: Sendable {
    case bytes([UInt8])
    case hole(Hole)
}
