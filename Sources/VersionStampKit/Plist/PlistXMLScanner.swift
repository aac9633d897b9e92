import EssentialsSupport

/// A piece of an element's direct content in the raw bytes.
struct ScannedSegment: Equatable {
    enum Kind: Equatable {
        /// Character data, possibly with character and predefined entity references.
        case text
        /// The inside of a `<![CDATA[…]]>` section.
        case cdata
    }

    var kind: Kind
    var range: Range<Int>
}

/// An element located in the raw bytes of an XML document.
struct ScannedElement {
    var name: String
    /// From the `<` of the start tag to just after the `>` of the end tag (or of `<x/>`).
    var range: Range<Int>
    /// Between the start tag and the end tag; nil for an empty-element tag `<x/>`.
    var contentRange: Range<Int>?
    /// Text and CDATA directly inside the element (comments and PIs are left out).
    var segments: [ScannedSegment]
    var children: [ScannedElement]
}

/// Finds the exact byte ranges of elements and their text in a UTF-8 XML document, so the
/// editor can replace a string's bytes and leave every other byte as it was.
///
/// It is deliberately small: it runs only on documents libxml2 has already accepted, and every
/// finding is cross-checked against libxml2's tree (names, nesting, decoded text). It never
/// expands anything: an entity declaration or a reference to anything but the five predefined
/// entities and character references is refused.
struct PlistXMLScanner {
    private let bytes: [UInt8]
    /// The file the bytes come from, for errors.
    private let path: String
    private var index = 0

    init(bytes: [UInt8], path: String = "") {
        self.bytes = bytes
        self.path = path
    }

    /// Scans a whole document and returns its root element. A document the scanner does not
    /// understand (libxml2's diagnosis is preferred, so this is rare), an entity declaration or
    /// reference, or a declared encoding other than UTF-8 throws a ``VersionStampError`` for `path`.
    static func scanDocument(_ bytes: [UInt8], path: String) throws -> ScannedElement {
        var scanner = PlistXMLScanner(bytes: bytes, path: path)
        return try scanner.scanDocument()
    }

    /// The 1-based line of byte `offset`.
    private func line(_ offset: Int) -> Int {
        bytes[..<min(offset, bytes.count)].reduce(1) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
    }

    /// Bytes the scanner cannot locate elements in, at `offset`.
    private func malformed(_ offset: Int, _ message: String) -> VersionStampError {
        VersionStampError(
            .malformedPlist, path: path, line: line(offset),
            message: "cannot locate the plist's bytes (\(message)); the file was left untouched")
    }

    /// Scans `content` as the inside of an element (used to check a replacement) and returns
    /// its segments, or nil when it is not plain content (elements, unknown references).
    static func segments(ofContent content: [UInt8]) -> [ScannedSegment]? {
        let wrapped = Array("<x>".utf8) + content + Array("</x>".utf8)
        var scanner = PlistXMLScanner(bytes: wrapped)
        guard let element = try? scanner.scanElement(), element.children.isEmpty,
            scanner.index == wrapped.count
        else { return nil }
        return element.segments.map {
            ScannedSegment(kind: $0.kind, range: ($0.range.lowerBound - 3)..<($0.range.upperBound - 3))
        }
    }

    /// The text of `segments` in `bytes` as an XML parser reports it: references decoded,
    /// line ends normalized to `\n`.
    static func decode(_ segments: [ScannedSegment], in bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        for segment in segments {
            var i = segment.range.lowerBound
            let end = segment.range.upperBound
            while i < end {
                let byte = bytes[i]
                if byte == UInt8(ascii: "\r") {
                    out.append(UInt8(ascii: "\n"))
                    i += (i + 1 < end && bytes[i + 1] == UInt8(ascii: "\n")) ? 2 : 1
                } else if byte == UInt8(ascii: "&") && segment.kind == .text,
                    let semicolon = bytes[i..<end].firstIndex(of: UInt8(ascii: ";")),
                    let scalar = referencedScalar(bytes[(i + 1)..<semicolon])
                {
                    out.append(contentsOf: String(Character(scalar)).utf8)
                    i = semicolon + 1
                } else {
                    out.append(byte)
                    i += 1
                }
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The character a reference body (`amp`, `#38`, `#x26`) stands for; nil for other entities.
    static func referencedScalar(_ body: ArraySlice<UInt8>) -> Unicode.Scalar? {
        let text = String(decoding: body, as: UTF8.self)
        switch text {
        case "amp": return "&"
        case "lt": return "<"
        case "gt": return ">"
        case "quot": return "\""
        case "apos": return "'"
        default: break
        }
        guard text.hasPrefix("#") else { return nil }
        let number = text.dropFirst()
        let value: UInt32?
        if number.hasPrefix("x") {
            value = UInt32(number.dropFirst(), radix: 16)
        } else {
            value = UInt32(number, radix: 10)
        }
        return value.flatMap(Unicode.Scalar.init)
    }

    // MARK: Document level

    private mutating func scanDocument() throws -> ScannedElement {
        if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) {
            throw VersionStampError.unsupportedEncoding("UTF-16", path: path)
        }
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        if hasPrefix("<?xml") { try checkDeclaredEncoding() }
        var root: ScannedElement?
        while index < bytes.count {
            if isSpace(bytes[index]) {
                index += 1
            } else if hasPrefix("<?") {
                try skip(past: "?>")
            } else if hasPrefix("<!--") {
                try skip(past: "-->")
            } else if hasPrefix("<!DOCTYPE") {
                try skipDoctype()
            } else if bytes[index] == UInt8(ascii: "<"), root == nil {
                root = try scanElement()
            } else {
                throw malformed(index, "unexpected content outside the root element")
            }
        }
        guard let root else { throw malformed(index, "no root element") }
        return root
    }

    private mutating func checkDeclaredEncoding() throws {
        guard let end = find("?>", from: index) else { return }
        let declaration = String(decoding: bytes[index..<end], as: UTF8.self)
        guard let range = declaration.range(ofText: "encoding") else { return }
        let rest = declaration[range.upperBound...].drop { $0 == " " || $0 == "=" || $0 == "\t" }
        guard let quote = rest.first, quote == "\"" || quote == "'" else { return }
        let value = rest.dropFirst().prefix { $0 != quote }
        if value.lowercased() != "utf-8" && value.lowercased() != "utf8" {
            throw VersionStampError.unsupportedEncoding(String(value), path: path)
        }
    }

    /// Skips `<!DOCTYPE …>`, refusing any entity declaration in an internal subset.
    private mutating func skipDoctype() throws {
        index += "<!DOCTYPE".utf8.count
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                try skipQuoted()
            } else if byte == UInt8(ascii: "[") {
                index += 1
                while index < bytes.count, bytes[index] != UInt8(ascii: "]") {
                    if hasPrefix("<!--") {
                        try skip(past: "-->")
                    } else if hasPrefix("<!ENTITY") {
                        let start = index + "<!ENTITY".utf8.count
                        let name = String(
                            decoding: bytes[start...].drop(while: isSpace).prefix { !isSpace($0) }, as: UTF8.self)
                        throw VersionStampError.entityDeclaration(path: path, line: line(index), name: name)
                    } else if bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") {
                        try skipQuoted()
                    } else {
                        index += 1
                    }
                }
                index += 1
            } else if byte == UInt8(ascii: ">") {
                index += 1
                return
            } else {
                index += 1
            }
        }
        throw malformed(index, "unterminated DOCTYPE")
    }

    // MARK: Elements

    /// Scans the element starting at `index` (which points at its `<`).
    private mutating func scanElement() throws -> ScannedElement {
        let start = index
        index += 1
        let name = try readName()
        if try scanAttributes(ofTagAt: start) {
            return ScannedElement(name: name, range: start..<index, contentRange: nil, segments: [], children: [])
        }
        let contentStart = index
        var segments: [ScannedSegment] = []
        var children: [ScannedElement] = []
        while index < bytes.count {
            if bytes[index] != UInt8(ascii: "<") {
                let textStart = index
                while index < bytes.count, bytes[index] != UInt8(ascii: "<") { index += 1 }
                try checkReferences(in: textStart..<index)
                segments.append(ScannedSegment(kind: .text, range: textStart..<index))
            } else if hasPrefix("</") {
                let contentEnd = index
                index += 2
                let endName = try readName()
                guard endName == name else {
                    throw malformed(contentEnd, "end tag </\(endName)> does not match <\(name)>")
                }
                skipSpaces()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ">") else {
                    throw malformed(index, "unterminated end tag")
                }
                index += 1
                return ScannedElement(
                    name: name, range: start..<index, contentRange: contentStart..<contentEnd,
                    segments: segments, children: children)
            } else if hasPrefix("<!--") {
                try skip(past: "-->")
            } else if hasPrefix("<![CDATA[") {
                let inner = index + "<![CDATA[".utf8.count
                guard let end = find("]]>", from: inner) else {
                    throw malformed(index, "unterminated CDATA section")
                }
                segments.append(ScannedSegment(kind: .cdata, range: inner..<end))
                index = end + 3
            } else if hasPrefix("<?") {
                try skip(past: "?>")
            } else if hasPrefix("<!") {
                throw malformed(index, "unexpected markup declaration")
            } else {
                children.append(try scanElement())
            }
        }
        throw malformed(start, "element <\(name)> is not closed")
    }

    /// Skips the attributes of the start tag at `start` and its closing `>` or `/>`; true when
    /// the element is empty (`/>`).
    private mutating func scanAttributes(ofTagAt start: Int) throws -> Bool {
        while true {
            skipSpaces()
            guard index < bytes.count else { throw malformed(start, "unterminated start tag") }
            if hasPrefix("/>") {
                index += 2
                return true
            }
            if bytes[index] == UInt8(ascii: ">") {
                index += 1
                return false
            }
            _ = try readName()
            skipSpaces()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "=") else {
                throw malformed(index, "expected '=' in attribute")
            }
            index += 1
            skipSpaces()
            try checkReferences(in: try skipQuoted())
        }
    }

    /// Refuses references to anything but the predefined entities and character references.
    private func checkReferences(in range: Range<Int>) throws {
        var i = range.lowerBound
        while i < range.upperBound {
            if bytes[i] == UInt8(ascii: "&") {
                guard let semicolon = bytes[i..<range.upperBound].firstIndex(of: UInt8(ascii: ";")) else {
                    throw malformed(i, "unterminated reference")
                }
                if Self.referencedScalar(bytes[(i + 1)..<semicolon]) == nil {
                    throw VersionStampError.entityDeclaration(
                        path: path, line: line(i), name: String(decoding: bytes[(i + 1)..<semicolon], as: UTF8.self))
                }
                i = semicolon + 1
            } else {
                i += 1
            }
        }
    }

    // MARK: Lexical helpers

    private func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    private mutating func skipSpaces() {
        while index < bytes.count, isSpace(bytes[index]) { index += 1 }
    }

    private func hasPrefix(_ text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        return text.withUTF8Buffer { bytes[index..<(index + count)].elementsEqual($0) }
    }

    private func find(_ text: StaticString, from start: Int) -> Int? {
        let needle = text.withUTF8Buffer { Array($0) }
        var i = start
        while i + needle.count <= bytes.count {
            if bytes[i] == needle[0], bytes[i..<(i + needle.count)].elementsEqual(needle) { return i }
            i += 1
        }
        return nil
    }

    private mutating func skip(past terminator: StaticString) throws {
        guard let end = find(terminator, from: index + 2) else {
            throw malformed(index, "unterminated markup")
        }
        index = end + terminator.utf8CodeUnitCount
    }

    /// Skips a quoted string starting at `index`; returns the range inside the quotes.
    @discardableResult
    private mutating func skipQuoted() throws -> Range<Int> {
        guard index < bytes.count else { throw malformed(index, "expected a quoted value") }
        let quote = bytes[index]
        guard quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else {
            throw malformed(index, "expected a quoted value")
        }
        guard let end = bytes[(index + 1)...].firstIndex(of: quote) else {
            throw malformed(index, "unterminated quoted value")
        }
        let inside = (index + 1)..<end
        index = end + 1
        return inside
    }

    private mutating func readName() throws -> String {
        let start = index
        while index < bytes.count {
            let byte = bytes[index]
            if isSpace(byte) || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "=") {
                break
            }
            index += 1
        }
        guard index > start else { throw malformed(start, "expected a name") }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }
}
