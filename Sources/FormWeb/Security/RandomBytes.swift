import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Random bytes from the kernel's CSPRNG for ids and tokens (a browser's id, a create view's
/// one-time token, a session's CSRF key), drawn from a pool that one read of `/dev/urandom`
/// fills with 4 KB: each byte handed out once, never kept. `SymmetricKey(size:)` asked the kernel for 8
/// bytes at a time, four system calls for every 32-byte token, the larger part of a create
/// view's time in the kernel.
enum RandomBytes {
    private static let pool = Mutex(Pool())

    private struct Pool {
        var bytes = [UInt8](repeating: 0, count: 4096)
        /// Where the unused bytes start; the pool is empty at the end.
        var next = 4096

        mutating func take(_ count: Int, into out: UnsafeMutableRawBufferPointer) {
            var written = 0
            while written < count {
                if next == bytes.count { refill() }
                let step = min(count - written, bytes.count - next)
                for index in 0..<step { out[written + index] = bytes[next + index] }
                // Handed out: no byte is left behind to be read again.
                for index in next..<(next + step) { bytes[index] = 0 }
                next += step
                written += step
            }
        }

        mutating func refill() {
            #if canImport(Glibc)
            // The kernel's CSPRNG; once seeded at boot, /dev/urandom never blocks nor runs dry.
            let file = open("/dev/urandom", O_RDONLY | O_CLOEXEC)
            guard file >= 0 else { fatalError("cannot open /dev/urandom: errno \(errno)") }
            defer { close(file) }
            var filled = 0
            while filled < bytes.count {
                let got = bytes.withUnsafeMutableBytes { read(file, $0.baseAddress! + filled, $0.count - filled) }
                if got > 0 {
                    filled += got
                } else if got == 0 || errno != EINTR {
                    fatalError("cannot read /dev/urandom: errno \(errno)")
                }
            }
            #else
            var generator = SystemRandomNumberGenerator()
            for index in bytes.indices { bytes[index] = generator.next() }
            #endif
            next = 0
        }
    }

    /// `count` random bytes, passed to `body` in a buffer that is wiped afterwards.
    static func with<T>(_ count: Int, _ body: (UnsafeRawBufferPointer) -> T) -> T {
        withUnsafeTemporaryAllocation(byteCount: count, alignment: 1) { buffer in
            pool.withLock { $0.take(count, into: buffer) }
            defer { buffer.initializeMemory(as: UInt8.self, repeating: 0) }
            return body(UnsafeRawBufferPointer(buffer))
        }
    }
}
