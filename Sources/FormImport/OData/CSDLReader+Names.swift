import FormXML

/// The reader's names: aliases resolved, terms, qualified types, paths and annotation targets
/// in their canonical form, enumeration values.
extension CSDLReader {
    /// A qualified name with its alias resolved: `UI.FieldGroup` → `com.sap.vocabularies.UI.v1.FieldGroup`.
    ///
    /// A namespace part that is neither a declared alias nor a declared or well-known namespace is
    /// reported when `warn` is set (terms, record types, enumerations); one that is the usual alias
    /// of a well-known vocabulary (`Core`, `SAP__common`) is read as that vocabulary.
    mutating func resolve(_ qualified: String, line: Int, warn: Bool) -> String {
        guard let dot = qualified.lastIndex(ofASCII: UInt8(ascii: ".")) else { return qualified }
        let prefix = String(qualified[..<dot])
        if let namespace = document.aliases[prefix] { return namespace + qualified[dot...] }
        if document.namespaces.contains(prefix) || prefix == "Edm" || Vocabulary.knownNamespaces.contains(prefix) {
            return qualified
        }
        guard warn else { return qualified }
        undeclaredUses += 1
        let guess = Vocabulary.conventionalNamespace(forAlias: prefix)
        report.tally(.undeclaredAlias, key: prefix, file: document.file, line: line) { count in
            let reading = guess.map { "read as \($0)" } ?? "the names using it are not recognised"
            return
                "The alias \(prefix) is used without an edmx:Reference or Schema declaring it\(ODataReport.times(count)); \(reading)."
        }
        return guess.map { $0 + qualified[dot...] } ?? qualified
    }

    /// A term as written → its full name, and whether the mapping reads its values.
    mutating func resolveTerm(
        _ written: UnsafeBufferPointer<UInt8>, line: Int
    ) -> (name: String, readsValue: Bool) {
        let (key, known) = terms.lookup(written)
        if let known {
            // Every use of an undeclared alias counts in the report.
            if known.undeclared { _ = resolve(String(decoding: written, as: UTF8.self), line: line, warn: true) }
            return (known.resolved, known.readsValue)
        }
        let text = String(decoding: written, as: UTF8.self)
        let before = undeclaredUses
        let resolved = resolve(text, line: line, warn: true)
        let readsValue = Term.valued.contains(resolved)
        terms.store(key, text: text, value: (resolved, undeclaredUses != before, readsValue))
        return (resolved, readsValue)
    }

    mutating func enumValues(_ written: UnsafeBufferPointer<UInt8>, line: Int) -> [EnumValue] {
        let (key, known) = enumMembers.lookup(written)
        if let known {
            // Problems are counted per use, as the first use counted them.
            if known.reported { _ = enumValues(String(decoding: written, as: UTF8.self), line: line) }
            return known.values
        }
        let text = String(decoding: written, as: UTF8.self)
        let before = enumProblems
        let values = enumValues(text, line: line)
        enumMembers.store(key, text: text, value: (values, enumProblems != before))
        return values
    }

    /// A type named by a model element: qualified and alias-resolved; a name written without a
    /// namespace (as some V2 services do) is read in the schema being read.
    mutating func qualifiedType(_ written: String, line: Int) -> String {
        let name = written.trimmingASCIIWhitespace
        guard name.contains(ascii: UInt8(ascii: ".")) else {
            return currentNamespace.isEmpty ? name : currentNamespace + "." + name
        }
        return resolve(name, line: line, warn: false)
    }

    /// A path with the terms of its `@Term#Qualifier` segments resolved.
    mutating func resolvePath(_ raw: String, line: Int) -> String {
        let path = raw.trimmingASCIIWhitespace
        guard path.contains(ascii: UInt8(ascii: "@")) else { return path }
        return path.split(separator: "/", omittingEmptySubsequences: false).map { segment -> String in
            let segment = String(segment)
            guard let at = segment.firstIndex(ofASCII: UInt8(ascii: "@")) else { return segment }
            let term = String(segment[segment.index(after: at)...])
            let hash = term.firstIndex(ofASCII: UInt8(ascii: "#")) ?? term.endIndex
            return String(segment[..<at]) + "@" + resolve(String(term[..<hash]), line: line, warn: true)
                + String(term[hash...])
        }.joined(separator: "/")
    }

    /// A target in canonical form: its leading qualified name (and an overload's parameter
    /// types) alias-resolved, `@Term` segments resolved. The leading names repeat (one per
    /// property of a type), so they are resolved once per document.
    mutating func canonicalTarget(_ raw: UnsafeBufferPointer<UInt8>, line: Int) -> String {
        var start = 0
        var end = raw.count
        while start < end && isASCIIWhitespace(raw[start]) { start += 1 }
        while end > start && isASCIIWhitespace(raw[end - 1]) { end -= 1 }
        var split = start
        while split < end && raw[split] != UInt8(ascii: "/") && raw[split] != UInt8(ascii: "(") { split += 1 }
        if split < end && raw[split] == UInt8(ascii: "(") {
            return canonicalOperationTarget(
                String(decoding: UnsafeBufferPointer(rebasing: raw[start..<end]), as: UTF8.self), line: line)
        }
        let headBytes = UnsafeBufferPointer(rebasing: raw[start..<split])
        let (key, known) = heads.lookup(headBytes)
        let head: String
        if let known {
            head = known
        } else {
            let text = String(decoding: headBytes, as: UTF8.self)
            head = resolve(text, line: line, warn: false)
            heads.store(key, text: text, value: head)
        }
        guard split < end else { return head }
        let rest = String(decoding: UnsafeBufferPointer(rebasing: raw[split..<end]), as: UTF8.self)
        return head + (rest.contains(ascii: UInt8(ascii: "@")) ? resolvePath(rest, line: line) : rest)
    }

    /// An operation target: `Namespace.Action(Namespace.Type)/parameter`.
    mutating func canonicalOperationTarget(_ target: String, line: Int) -> String {
        guard let open = target.firstIndex(ofASCII: UInt8(ascii: "(")),
            let close = target.lastIndex(ofASCII: UInt8(ascii: ")")), open < close
        else { return resolve(target, line: line, warn: false) }
        let head = resolve(String(target[..<open]), line: line, warn: false)
        let parameters = target[target.index(after: open)..<close].split(separator: ",").map { parameter -> String in
            var text = String(parameter).trimmingASCIIWhitespace
            var wrap = false
            if text.hasPrefix("Collection("), text.hasSuffix(")") {
                wrap = true
                text = String(text.dropFirst("Collection(".count).dropLast())
            }
            let resolved = resolve(text, line: line, warn: false)
            return wrap ? "Collection(\(resolved))" : resolved
        }
        return head + "(" + parameters.joined(separator: ",") + ")"
            + resolvePath(String(target[target.index(after: close)...]), line: line)
    }

    /// Members written `Namespace.Type/Member`, several separated by spaces.
    mutating func enumValues(_ text: String, line: Int) -> [EnumValue] {
        text.asciiWords.map { word in
            let token = String(word)
            guard let slash = token.firstIndex(ofASCII: UInt8(ascii: "/")) else {
                enumProblems += 1
                let member = String(token)
                report.tally(.unqualifiedEnumValue, key: member, file: document.file, line: line) { count in
                    "The enumeration member \"\(member)\" is written without its type\(ODataReport.times(count)); write it as Namespace.Type/\(member)."
                }
                return EnumValue(type: nil, member: member)
            }
            let type = resolve(String(token[..<slash]), line: line, warn: true)
            let member = String(token[token.index(after: slash)...])
            if let members = KnownEnums.members[type], !members.contains(member) {
                enumProblems += 1
                let shown = Vocabulary.displayName(ofTerm: type)
                report.tally(.unknownEnumValue, key: type + "/" + member, file: document.file, line: line) { count in
                    "\(shown) has no member \"\(member)\"\(ODataReport.times(count)); it is ignored. Members: \(members.sorted().joined(separator: ", "))."
                }
            }
            return EnumValue(type: type, member: member)
        }
    }
}
