import Foundation
import Logging

/// How the server writes its log lines (`FIELDWORK_LOG_FORMAT`), one line per event on
/// standard error.
package enum LogFormat: String, Sendable, CaseIterable {
    /// swift-log's own lines, for people: `2025-05-01T09:30:00+0200 info fieldwork: hb.request.id=… [FormWeb] Message`.
    case text
    /// One JSON object a line: `time`, `level`, `label`, `message`, `source`, then the metadata.
    case json
    /// logfmt, `key=value` pairs, values quoted when they must be: `time=… level=info msg="…" hb.request.id=…`.
    case logfmt

    /// Makes every logger of the process write in this format. Once per process, before the
    /// first logger is made (swift-log's rule); the command line does it before the server starts.
    /// Every line logged while a request is handled carries its id (``RequestIDs``), whichever
    /// logger wrote it.
    package func bootstrap() {
        switch self {
        case .text:
            LoggingSystem.bootstrap(
                { label, provider in TextLogHandler(label: label, metadataProvider: provider) },
                metadataProvider: RequestIDs.metadataProvider)
        case .json, .logfmt:
            let format = self
            LoggingSystem.bootstrap(
                { label, provider in StructuredLogHandler(label: label, format: format, metadataProvider: provider) },
                metadataProvider: RequestIDs.metadataProvider)
        }
    }
}

/// The `text` lines, as swift-log's `StreamLogHandler` writes them on standard error
/// (`2025-05-01T09:30:00+0200 info fieldwork: hb.request.id=… [FormWeb] Message`), but with the
/// metadata written out when a line is, not whenever it changes: Hummingbird gives every
/// request's logger its id, and `StreamLogHandler` formats its metadata again at each change,
/// which cost as much as the rest of the 404 page's own work.
struct TextLogHandler: LogHandler {
    let label: String
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let merged = event.metadata(over: metadata, provider: metadataProvider)
        let pretty =
            merged.isEmpty ? "" : " " + merged.sorted { $0.key < $1.key }.map { "\($0)=\($1)" }.joined(separator: " ")
        let line =
            "\(Self.timestamp()) \(event.level)\(label.isEmpty ? "" : " ")\(label):\(pretty) [\(event.source)] \(event.message)\n"
        FileHandle.standardError.write(Data(line.utf8))
    }

    /// The local time as `StreamLogHandler` writes it: `2025-05-01T09:30:00+0200`.
    static func timestamp() -> String {
        var buffer = [Int8](repeating: 0, count: 64)
        var now = time(nil)
        var local = tm()
        guard localtime_r(&now, &local) != nil else { return "<unknown>" }
        strftime(&buffer, buffer.count, "%Y-%m-%dT%H:%M:%S%z", &local)
        return buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }
}

/// The `json` and `logfmt` lines: everything a line says as fields a log collector can read
/// without a pattern.
struct StructuredLogHandler: LogHandler {
    let label: String
    let format: LogFormat
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let merged = event.metadata(over: metadata, provider: metadataProvider)
        let line = Self.line(
            format: format, time: Date(), level: event.level, label: label, message: event.message.description,
            source: event.source, metadata: merged)
        FileHandle.standardError.write(Data(line.utf8))
    }

    /// One log line, newline included.
    static func line(
        format: LogFormat, time: Date, level: Logger.Level, label: String, message: String, source: String,
        metadata: Logger.Metadata
    ) -> String {
        let stamp = time.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
        let keys = metadata.keys.sorted()
        switch format {
        case .json:
            var fields = [
                "\"time\":\(json(stamp))", "\"level\":\(json(level.rawValue))", "\"label\":\(json(label))",
                "\"message\":\(json(message))", "\"source\":\(json(source))",
            ]
            for key in keys where !reserved.contains(key) {
                fields.append("\(json(key)):\(json(metadata[key]!))")
            }
            return "{" + fields.joined(separator: ",") + "}\n"
        case .logfmt, .text:
            var fields = [
                "time=\(stamp)", "level=\(level.rawValue)", "label=\(logfmt(label))", "msg=\(logfmt(message))",
            ]
            for key in keys where !reserved.contains(key) {
                fields.append("\(logfmtKey(key))=\(logfmt(flat(metadata[key]!)))")
            }
            fields.append("source=\(logfmt(source))")
            return fields.joined(separator: " ") + "\n"
        }
    }

    /// Field names of the line itself; metadata of the same name would shadow them.
    static let reserved: Set<String> = ["time", "level", "label", "message", "msg", "source"]

    static func json(_ value: Logger.Metadata.Value) -> String {
        switch value {
        case .string(let text): return json(text)
        case .stringConvertible(let item): return json(item.description)
        case .array(let items): return "[" + items.map { json($0) }.joined(separator: ",") + "]"
        case .dictionary(let entries):
            return "{" + entries.keys.sorted().map { "\(json($0)):\(json(entries[$0]!))" }.joined(separator: ",") + "}"
        }
    }

    /// A JSON string literal: quotes, backslashes and control characters escaped.
    static func json(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// Nested metadata as one value: `[a, b]`, `[k: v]`, as swift-log prints it.
    static func flat(_ value: Logger.Metadata.Value) -> String { value.description }

    /// A logfmt value: bare when it is one plain word, else quoted with `"`, `\` and control
    /// characters escaped, so a value never splits the line or fakes another field.
    static func logfmt(_ text: String) -> String {
        let plain =
            !text.isEmpty
            && text.unicodeScalars.allSatisfy {
                $0.value > 0x20 && $0.value != 0x7F && $0 != "\"" && $0 != "=" && $0 != "\\"
            }
        return plain ? text : json(text)
    }

    /// A logfmt key: anything but letters, digits and `._-:` becomes `_`.
    static func logfmtKey(_ key: String) -> String {
        let mapped = key.unicodeScalars.map { scalar -> Character in
            let allowed =
                (scalar.value < 0x80)
                && (CharacterSet.alphanumerics.contains(scalar) || "._-:".unicodeScalars.contains(scalar))
            return allowed ? Character(scalar) : "_"
        }
        return mapped.isEmpty ? "_" : String(mapped)
    }
}

extension LogEvent {
    /// What a line says beside its message: the handler's metadata, then the provider's, then the
    /// event's own (a later key wins), and the event's error as `error.message` and `error.type`.
    func metadata(over handler: Logger.Metadata, provider: Logger.MetadataProvider?) -> Logger.Metadata {
        var merged = handler
        if let provided = provider?.get() { merged.merge(provided) { _, new in new } }
        if let explicit = metadata { merged.merge(explicit) { _, new in new } }
        if let error {
            merged["error.message"] = "\(error)"
            merged["error.type"] = "\(String(reflecting: type(of: error)))"
        }
        return merged
    }
}
