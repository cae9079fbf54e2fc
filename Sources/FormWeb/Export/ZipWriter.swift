import Foundation
import NIOCore
import NIOFileSystem

/// A ZIP archive written front to back, for sending as it is made: each entry stored as it is
/// (no compression: attachments are mostly images and PDFs, compressed already), its CRC-32 and
/// sizes in a data descriptor after its bytes (so nothing is read twice or held back), and
/// Zip64 records where a size, an offset or the number of entries outgrows the classic fields
/// (APPNOTE 6.3.10, sections 4.3 and 4.5.3). Names are UTF-8 (flag bit 11).
///
/// The central directory, which must come last, grows by some 100 bytes an entry: past
/// ``Spill/memoryLimit`` it is kept in an unnamed temporary file, so an archive of any number
/// of files holds no more than that in memory.
///
/// Call ``begin(name:modified:size:)``, ``add(_:)`` for each chunk of the entry's bytes,
/// ``end()``, and after the last entry ``finish(_:)``; pass every buffer they give to the client
/// in order. ``discard()`` removes the temporary file of an archive that was not finished.
struct ZipWriter {
    /// Whether every entry and the end carry Zip64 records, needed or not (a test of the
    /// readers' side without writing 4 GB).
    var alwaysZip64 = false

    private var offset: UInt64 = 0
    private var count: UInt64 = 0
    private var central = Spill()
    private var current: Entry?

    private struct Entry {
        var name: [UInt8]
        var dosTime: UInt16
        var dosDate: UInt16
        var offset: UInt64
        var zip64: Bool
        var crc = CRC32()
        var size: UInt64 = 0
    }

    static let classicLimit: UInt64 = 0xFFFF_FFFF
    private static let flags: UInt16 = 0x0808  // data descriptor (bit 3), UTF-8 names (bit 11)

    /// The local header of the next entry.
    /// - Parameter size: the bytes expected (a file's size on disk): past 4 GB, the entry is Zip64
    ///   from its header on.
    mutating func begin(name: String, modified: Date, size: UInt64) -> ByteBuffer {
        let (time, date) = Self.dosTimestamp(modified)
        let zip64 = alwaysZip64 || size >= Self.classicLimit
        let entry = Entry(
            name: Array(name.utf8), dosTime: time, dosDate: date, offset: offset, zip64: zip64)
        var header = ByteBuffer()
        header.writeInteger(UInt32(0x0403_4B50), endianness: .little)
        header.writeInteger(UInt16(zip64 ? 45 : 20), endianness: .little)
        header.writeInteger(Self.flags, endianness: .little)
        header.writeInteger(UInt16(0), endianness: .little)  // stored
        header.writeInteger(time, endianness: .little)
        header.writeInteger(date, endianness: .little)
        header.writeInteger(UInt32(0), endianness: .little)  // CRC-32: in the descriptor
        header.writeInteger(UInt32(zip64 ? 0xFFFF_FFFF : 0), endianness: .little)
        header.writeInteger(UInt32(zip64 ? 0xFFFF_FFFF : 0), endianness: .little)
        header.writeInteger(UInt16(entry.name.count), endianness: .little)
        header.writeInteger(UInt16(zip64 ? 20 : 0), endianness: .little)
        header.writeBytes(entry.name)
        if zip64 {
            // Sizes unknown yet: zero here, the real ones in the descriptor.
            header.writeInteger(UInt16(0x0001), endianness: .little)
            header.writeInteger(UInt16(16), endianness: .little)
            header.writeInteger(UInt64(0), endianness: .little)
            header.writeInteger(UInt64(0), endianness: .little)
        }
        offset += UInt64(header.readableBytes)
        current = entry
        return header
    }

    /// Counts a chunk of the current entry's bytes (the caller sends the chunk itself).
    mutating func add(_ chunk: ByteBuffer) {
        chunk.withUnsafeReadableBytes { current?.crc.update($0) }
        current?.size += UInt64(chunk.readableBytes)
        offset += UInt64(chunk.readableBytes)
    }

    /// The current entry's data descriptor; its central directory record is kept for the end.
    /// - Throws: when an entry that was not Zip64 from its header outgrew 4 GB (its file grew
    ///   while it was being sent), or when the temporary file cannot be written.
    mutating func end() async throws -> ByteBuffer {
        guard let entry = current else { return ByteBuffer() }
        current = nil
        guard entry.zip64 || entry.size < Self.classicLimit else { throw ZipError.entryGrew }
        var descriptor = ByteBuffer()
        descriptor.writeInteger(UInt32(0x0807_4B50), endianness: .little)
        descriptor.writeInteger(entry.crc.value, endianness: .little)
        if entry.zip64 {
            descriptor.writeInteger(entry.size, endianness: .little)
            descriptor.writeInteger(entry.size, endianness: .little)
        } else {
            descriptor.writeInteger(UInt32(entry.size), endianness: .little)
            descriptor.writeInteger(UInt32(entry.size), endianness: .little)
        }
        offset += UInt64(descriptor.readableBytes)
        count += 1
        try await central.append(Self.centralRecord(entry, alwaysZip64: alwaysZip64))
        return descriptor
    }

    /// The central directory and the end records; sends them through `send`.
    mutating func finish(_ send: (ByteBuffer) async throws -> Void) async throws {
        let start = offset
        let size = UInt64(central.size)
        try await central.replay(send)
        offset += size
        var end = ByteBuffer()
        let zip64 = alwaysZip64 || count >= 0xFFFF || size >= Self.classicLimit || start >= Self.classicLimit
        if zip64 {
            let recordOffset = offset
            end.writeInteger(UInt32(0x0606_4B50), endianness: .little)
            end.writeInteger(UInt64(44), endianness: .little)  // the record's size after this field
            end.writeInteger(UInt16(0x032D), endianness: .little)  // made by: Unix, 4.5
            end.writeInteger(UInt16(45), endianness: .little)
            end.writeInteger(UInt32(0), endianness: .little)  // this disk
            end.writeInteger(UInt32(0), endianness: .little)  // the central directory's disk
            end.writeInteger(count, endianness: .little)
            end.writeInteger(count, endianness: .little)
            end.writeInteger(size, endianness: .little)
            end.writeInteger(start, endianness: .little)
            end.writeInteger(UInt32(0x0706_4B50), endianness: .little)
            end.writeInteger(UInt32(0), endianness: .little)
            end.writeInteger(recordOffset, endianness: .little)
            end.writeInteger(UInt32(1), endianness: .little)  // disks in all
        }
        end.writeInteger(UInt32(0x0605_4B50), endianness: .little)
        end.writeInteger(UInt16(0), endianness: .little)
        end.writeInteger(UInt16(0), endianness: .little)
        let entries = UInt16(zip64 ? 0xFFFF : count)
        end.writeInteger(entries, endianness: .little)
        end.writeInteger(entries, endianness: .little)
        end.writeInteger(UInt32(zip64 ? 0xFFFF_FFFF : size), endianness: .little)
        end.writeInteger(UInt32(zip64 ? 0xFFFF_FFFF : start), endianness: .little)
        end.writeInteger(UInt16(0), endianness: .little)  // no comment
        offset += UInt64(end.readableBytes)
        try await send(end)
    }

    /// Removes the temporary file, if the central directory needed one.
    mutating func discard() async {
        await central.discard()
    }

    private static func centralRecord(_ entry: Entry, alwaysZip64: Bool) -> ByteBuffer {
        // Each of the three goes into the Zip64 extra field, in this order, only when it outgrew
        // its classic field (or every time, for a test of the readers).
        let bigSize = alwaysZip64 || entry.size >= classicLimit
        let bigOffset = alwaysZip64 || entry.offset >= classicLimit
        var extra = ByteBuffer()
        if bigSize || bigOffset {
            extra.writeInteger(UInt16(0x0001), endianness: .little)
            extra.writeInteger(UInt16((bigSize ? 16 : 0) + (bigOffset ? 8 : 0)), endianness: .little)
            if bigSize {
                extra.writeInteger(entry.size, endianness: .little)
                extra.writeInteger(entry.size, endianness: .little)
            }
            if bigOffset { extra.writeInteger(entry.offset, endianness: .little) }
        }
        let zip64 = entry.zip64 || extra.readableBytes > 0
        var record = ByteBuffer()
        record.writeInteger(UInt32(0x0201_4B50), endianness: .little)
        record.writeInteger(UInt16(0x0300 | (zip64 ? 45 : 20)), endianness: .little)  // made by Unix
        record.writeInteger(UInt16(zip64 ? 45 : 20), endianness: .little)
        record.writeInteger(flags, endianness: .little)
        record.writeInteger(UInt16(0), endianness: .little)
        record.writeInteger(entry.dosTime, endianness: .little)
        record.writeInteger(entry.dosDate, endianness: .little)
        record.writeInteger(entry.crc.value, endianness: .little)
        record.writeInteger(UInt32(bigSize ? 0xFFFF_FFFF : entry.size), endianness: .little)
        record.writeInteger(UInt32(bigSize ? 0xFFFF_FFFF : entry.size), endianness: .little)
        record.writeInteger(UInt16(entry.name.count), endianness: .little)
        record.writeInteger(UInt16(extra.readableBytes), endianness: .little)
        record.writeInteger(UInt16(0), endianness: .little)  // comment
        record.writeInteger(UInt16(0), endianness: .little)  // disk
        record.writeInteger(UInt16(0), endianness: .little)  // internal attributes
        record.writeInteger(UInt32(0o100644) << 16, endianness: .little)  // a plain file, rw-r--r--
        record.writeInteger(UInt32(bigOffset ? 0xFFFF_FFFF : entry.offset), endianness: .little)
        record.writeBytes(entry.name)
        record.writeBuffer(&extra)
        return record
    }

    /// MS-DOS time and date (two-second steps, 1980 to 2107), in UTC.
    static func dosTimestamp(_ date: Date) -> (time: UInt16, date: UInt16) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        let year = min(max((parts.year ?? 1980) - 1980, 0), 127)
        let time = UInt16((parts.hour ?? 0) << 11 | (parts.minute ?? 0) << 5 | (parts.second ?? 0) / 2)
        let day = UInt16(year << 9 | (parts.month ?? 1) << 5 | (parts.day ?? 1))
        return (time, day)
    }

    enum ZipError: Error {
        case entryGrew
    }
}

/// Bytes appended now and sent later in the same order: in memory up to ``memoryLimit``, then in
/// an unnamed temporary file (`O_TMPFILE` where the system has it), which is gone once closed.
struct Spill {
    static let memoryLimit = 1 << 20

    private var buffer = ByteBuffer()
    private var file: ReadWriteFileHandle?
    private var written: Int64 = 0

    /// Every byte appended so far.
    var size: Int { Int(written) + buffer.readableBytes }

    mutating func append(_ bytes: ByteBuffer) async throws {
        var bytes = bytes
        buffer.writeBuffer(&bytes)
        guard buffer.readableBytes >= Self.memoryLimit else { return }
        if file == nil {
            let folder = FileManager.default.temporaryDirectory.path
            file = try await FileSystem.shared.openFile(
                forReadingAndWritingAt: FilePath("\(folder)/fieldwork-spill-\(UUID().uuidString)"),
                options: .newFile(replaceExisting: false, permissions: [.ownerReadWrite]))
        }
        written += Int64(try await file!.write(contentsOf: buffer, toAbsoluteOffset: written))
        buffer.clear()
    }

    /// Sends every byte appended, in order, then forgets them.
    mutating func replay(_ send: (ByteBuffer) async throws -> Void) async throws {
        if let file {
            for try await chunk in file.readChunks(in: 0..<written, chunkLength: .kibibytes(256)) {
                try await send(chunk)
            }
        }
        if buffer.readableBytes > 0 { try await send(buffer) }
        await discard()
    }

    /// Closes and so removes the temporary file, if there is one.
    mutating func discard() async {
        buffer = ByteBuffer()
        if let file {
            self.file = nil
            try? await file.close(makeChangesVisible: false)
        }
        written = 0
    }
}
