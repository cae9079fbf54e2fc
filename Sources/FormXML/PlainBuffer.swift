import Foundation

/// A growable buffer of plain values (pointers and numbers) in memory of its own, handed over
/// to a `LeanTree` without copying.
struct PlainBuffer<Element> {
    private(set) var base: UnsafeMutablePointer<Element>
    private(set) var count = 0
    private var capacity: Int

    init(capacity: Int) {
        self.capacity = max(capacity, 16)
        base = malloc(self.capacity * MemoryLayout<Element>.stride)!.assumingMemoryBound(to: Element.self)
    }

    @inline(__always)
    subscript(_ i: Int) -> Element {
        get { base[i] }
        nonmutating set { base[i] = newValue }
    }

    @inline(__always)
    mutating func append(_ element: Element) {
        if count == capacity { grow(to: count + 1) }
        (base + count).initialize(to: element)
        count += 1
    }

    mutating func append(contentsOf elements: UnsafeBufferPointer<Element>) {
        if count + elements.count > capacity { grow(to: count + elements.count) }
        if let source = elements.baseAddress { (base + count).initialize(from: source, count: elements.count) }
        count += elements.count
    }

    mutating func removeLast() { count -= 1 }

    var isEmpty: Bool { count == 0 }

    private mutating func grow(to needed: Int) {
        capacity = max(capacity * 2, needed)
        base = realloc(base, capacity * MemoryLayout<Element>.stride)!.assumingMemoryBound(to: Element.self)
    }

    /// The memory, now the caller's to `free`; the buffer is left empty.
    mutating func take() -> UnsafeMutablePointer<Element> {
        let taken = base
        base = malloc(MemoryLayout<Element>.stride)!.assumingMemoryBound(to: Element.self)
        count = 0
        capacity = 1
        return taken
    }

    func release() { free(base) }
}
