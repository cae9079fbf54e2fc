/// Hands out sentinels while a plan's templates render once, and remembers which slot each stands for.
///
/// A sentinel is `U+E000`, the plan's random nonce, the slot's number and `U+E001`. Mustache's
/// escaping leaves all of these alone, imported text has the two private-use characters stripped
/// (``HTML/clean(_:)``), and the nonce differs per plan, so nothing else can look like a slot.
final class SlotRegistry {
    let nonce: String
    private(set) var slots: [Slot] = []
    private var numbers: [Slot: Int] = [:]

    init(nonce: String = SlotRegistry.makeNonce()) {
        self.nonce = nonce
    }

    /// The sentinel for a slot; the same slot always gets the same sentinel.
    func sentinel(_ slot: Slot) -> String {
        let number: Int
        if let known = numbers[slot] {
            number = known
        } else {
            number = slots.count
            slots.append(slot)
            numbers[slot] = number
        }
        return "\u{E000}\(nonce)\(number)\u{E001}"
    }

    static func makeNonce() -> String {
        var generator = SystemRandomNumberGenerator()
        let letters = Array("abcdefghijklmnopqrstuvwxyz")
        return String((0..<12).map { _ in letters[Int(generator.next() % UInt64(letters.count))] })
    }
}
