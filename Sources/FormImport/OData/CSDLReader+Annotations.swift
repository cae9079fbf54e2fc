import FormXML

/// The reader's annotations: inline and in `Annotations` blocks, their values, records and
/// collections, and the enumeration members a term's value names.
extension CSDLReader {
    /// The annotations written inside a model element; the target is built only if there are any.
    mutating func readInlineAnnotations(_ element: XMLNode, target: @autoclosure () -> String) {
        var table: AnnotationIndex.Table?
        element.forEachChild { child in
            guard tag(child) == .annotation else { return }
            if table == nil { table = index.table(forAdding: target()) }
            readAnnotation(child, table: table!, blockQualifier: nil)
        }
    }

    mutating func readAnnotationsBlock(_ element: XMLNode) {
        var target = ""
        var qualifier: String?
        element.forEachAttribute { attribute in
            guard attribute.namespaceKey == nil else { return }
            switch attribute.localName {
            case "Target": target = attribute.withValueBytes { canonicalTarget($0, line: element.line) }
            case "Qualifier": qualifier = attribute.value
            default: break
            }
        }
        let table = index.table(forAdding: target)
        element.forEachChild { child in
            if tag(child) == .annotation { readAnnotation(child, table: table, blockQualifier: qualifier) }
        }
    }

    /// An annotation written directly in a schema, container or type, outside any `<Annotations>`.
    mutating func readAnnotation(_ element: XMLNode, target: String) {
        readAnnotation(element, table: index.table(forAdding: target), blockQualifier: nil)
    }

    mutating func readAnnotation(_ element: XMLNode, table: AnnotationIndex.Table, blockQualifier: String?) {
        guard let (term, qualifier, value) = annotationParts(element) else { return }
        var nested: [NestedAnnotation] = []
        element.forEachChild { child in
            if tag(child) == .annotation, let (term, qualifier, value) = annotationParts(child) {
                nested.append(NestedAnnotation(term: term, qualifier: qualifier, value: value))
            }
        }
        index.add(
            to: table,
            AnnotationEntry(
                term: term, qualifier: qualifier ?? blockQualifier, target: index.target(of: table), value: value,
                annotations: nested,
                file: document.file, line: element.line))
    }

    /// Term, qualifier and value of an `<Annotation>`; nil without a term.
    mutating func annotationParts(_ element: XMLNode) -> (String, String?, AnnotationValue)? {
        var term: String?
        var readsValue = true
        var qualifier: String?
        var value = AnnotationValue.absent
        element.forEachAttribute { attribute in
            guard attribute.namespaceKey == nil else { return }
            switch attributeTag(attribute) {
            case .term:
                let resolved = attribute.withValueBytes { resolveTerm($0, line: element.line) }
                term = resolved.name
                readsValue = resolved.readsValue
            case .qualifier: qualifier = attribute.value
            case .enumMember: value = .enumMember(attribute.withValueBytes { enumValues($0, line: element.line) })
            case .property, .type, .name, .nullable, .maxLength, .precision, .scale, .defaultValue, .other: break
            case let constant: value = self.constant(constant, attribute.value, line: element.line)
            }
        }
        guard let term, !term.isEmpty else { return nil }
        if case .absent = value {
            if readsValue {
                value = childValue(element)
            } else if element.firstChildElement != nil {
                // A term the mapping never reads: only its enumeration members are checked.
                scanEnumMembers(element)
                value = .notRead
            }
        }
        return (term, qualifier, value)
    }

    /// Checks the enumeration members inside a value that is not otherwise read.
    mutating func scanEnumMembers(_ element: XMLNode) {
        element.forEachChild { child in
            if tag(child) == .enumMember {
                _ = enumValues(child.ownText, line: child.line)
                return
            }
            child.forEachAttribute { attribute in
                if attribute.namespaceKey == nil, attributeTag(attribute) == .enumMember {
                    _ = attribute.withValueBytes { enumValues($0, line: child.line) }
                }
            }
            scanEnumMembers(child)
        }
    }

    /// The value written as an attribute: `String="..."`, `Bool="true"`, `Path="..."`, ...
    mutating func constant(_ tag: AttributeTag, _ text: String, line: Int) -> AnnotationValue {
        switch tag {
        case .string: .string(text)
        case .bool: .bool(isTrue(text))
        case .int: .int(text.trimmingASCIIWhitespace)
        case .decimal, .float: .decimal(text.trimmingASCIIWhitespace)
        case .date, .dateTimeOffset, .timeOfDay, .duration, .guid, .binary: .literal(text.trimmingASCIIWhitespace)
        case .enumMember: .enumMember(enumValues(text, line: line))
        case .path: .path(resolvePath(text, line: line))
        case .propertyPath: .propertyPath(resolvePath(text, line: line))
        case .navigationPropertyPath: .navigationPropertyPath(resolvePath(text, line: line))
        case .annotationPath: .annotationPath(resolvePath(text, line: line))
        case .modelElementPath: .modelElementPath(resolvePath(text, line: line))
        case .urlRef: .expression("UrlRef")
        case .term, .qualifier, .property, .type, .name, .nullable, .maxLength, .precision, .scale, .defaultValue,
            .other:
            .absent
        }
    }

    /// The value written as the first child element other than an annotation.
    mutating func childValue(_ element: XMLNode) -> AnnotationValue {
        var value = AnnotationValue.absent
        var child = element.firstChildElement
        while let current = child {
            let currentTag = tag(current)
            if currentTag != .annotation {
                value = elementValue(current, currentTag)
                break
            }
            child = current.nextSiblingElement
        }
        return value
    }

    mutating func elementValue(_ element: XMLNode, _ elementTag: Tag) -> AnnotationValue {
        switch elementTag {
        case .string: return .string(element.ownText)
        case .bool: return .bool(isTrue(element.ownText.trimmingASCIIWhitespace))
        case .int: return .int(element.ownText.trimmingASCIIWhitespace)
        case .decimal, .float: return .decimal(element.ownText.trimmingASCIIWhitespace)
        case .date, .dateTimeOffset, .timeOfDay, .duration, .guid, .binary:
            return .literal(element.ownText.trimmingASCIIWhitespace)
        case .enumMember: return .enumMember(enumValues(element.ownText, line: element.line))
        case .path: return .path(resolvePath(element.ownText, line: element.line))
        case .propertyPath: return .propertyPath(resolvePath(element.ownText, line: element.line))
        case .navigationPropertyPath: return .navigationPropertyPath(resolvePath(element.ownText, line: element.line))
        case .annotationPath: return .annotationPath(resolvePath(element.ownText, line: element.line))
        case .modelElementPath: return .modelElementPath(resolvePath(element.ownText, line: element.line))
        case .null: return .null
        case .record: return .record(record(element))
        case .collection:
            var items: [AnnotationValue] = []
            element.forEachChild { item in
                let itemTag = tag(item)
                if itemTag != .annotation { items.append(elementValue(item, itemTag)) }
            }
            return .collection(items)
        default:
            return .expression(element.localName)
        }
    }

    mutating func record(_ element: XMLNode) -> AnnotationRecord {
        var record = AnnotationRecord()
        element.forEachAttribute { attribute in
            if attribute.namespaceKey == nil, attributeTag(attribute) == .type {
                record.type = attribute.withValueBytes { resolveTerm($0, line: element.line).name }
            }
        }
        element.forEachChild { child in
            switch tag(child) {
            case .propertyValue:
                var name = ""
                var value = AnnotationValue.absent
                child.forEachAttribute { attribute in
                    guard attribute.namespaceKey == nil else { return }
                    switch attributeTag(attribute) {
                    case .property: name = attribute.value
                    case .enumMember: value = .enumMember(attribute.withValueBytes { enumValues($0, line: child.line) })
                    case .term, .qualifier, .type, .name, .nullable, .maxLength, .precision, .scale, .defaultValue,
                        .other:
                        break
                    case let constant: value = self.constant(constant, attribute.value, line: child.line)
                    }
                }
                if case .absent = value { value = childValue(child) }
                if record.properties.isEmpty { record.properties.reserveCapacity(4) }
                record.properties.append((name, value))
            case .annotation:
                if let (term, qualifier, value) = annotationParts(child) {
                    record.annotations.append(NestedAnnotation(term: term, qualifier: qualifier, value: value))
                }
            default:
                break
            }
        }
        return record
    }
}
