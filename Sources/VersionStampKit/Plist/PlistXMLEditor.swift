import CLibXML2

/// Reads an XML property list and rewrites only the bytes of the strings it changes.
///
/// libxml2 parses and validates the document (well-formedness, no entities, no network);
/// ``PlistXMLScanner`` locates the byte ranges of the same elements, and the two are checked
/// against each other (names, nesting, decoded text) before anything is trusted. After an
/// edit the new bytes are parsed again and must give the same property list with only the
/// edited strings changed, or nothing is written.
struct PlistXMLEditor {
    let bytes: [UInt8]
    let path: String
    /// The property list's root value (the element inside `<plist>`).
    let root: PlistNode
    /// The `<string>` elements, indexed by ``PlistString/slot``.
    private let stringElements: [ScannedElement]
    private let lineStarts: [Int]

    init(bytes: [UInt8], path: String) throws {
        self.bytes = bytes
        self.path = path
        var starts = [0]
        for (offset, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") { starts.append(offset + 1) }
        self.lineStarts = starts

        let parsed = try PlistLibXMLParser.parse(bytes, url: path)
        let scanned = try PlistXMLScanner.scanDocument(bytes, path: path)
        var builder = Builder(bytes: bytes, path: path, lineStarts: starts)
        try builder.checkSame(parsed, scanned)
        guard parsed.name == "plist" else {
            throw VersionStampError(
                .malformedPlist, path: path, line: parsed.line,
                message: "not a property list: the root element is <\(parsed.name)>, expected <plist>")
        }
        guard parsed.children.count == 1, parsed.text.allSatisfy(\.isWhitespace) else {
            throw VersionStampError(
                .malformedPlist, path: path, line: parsed.line,
                message: "<plist> must hold exactly one value, found \(parsed.children.count)")
        }
        self.root = try builder.node(parsed.children[0], scanned.children[0])
        self.stringElements = builder.strings
    }

    static func line(of offset: Int, in lineStarts: [Int]) -> Int {
        var low = 0, high = lineStarts.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if lineStarts[mid] <= offset { low = mid } else { high = mid - 1 }
        }
        return low + 1
    }

    /// The document with `edits` applied; every byte outside the edited strings is kept.
    func applying(_ edits: [PlistStringEdit]) throws -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + 64)
        var copied = 0
        var expected: [Int: String] = [:]
        for edit in edits.sorted(by: {
            stringElements[$0.slot].range.lowerBound < stringElements[$1.slot].range.lowerBound
        }) {
            let element = stringElements[edit.slot]
            expected[edit.slot] = edit.newValue
            let line = Self.line(of: element.range.lowerBound, in: lineStarts)
            guard let contentRange = element.contentRange else {
                // <string/> (or <string attr="…"/>): open it up around the new value.
                output += bytes[copied..<element.range.lowerBound]
                var tag = Array(bytes[element.range.lowerBound..<(element.range.upperBound - 2)])
                while let last = tag.last, last == 0x20 || last == 0x09 || last == 0x0A || last == 0x0D {
                    tag.removeLast()
                }
                tag.append(UInt8(ascii: ">"))
                output += tag
                output += try escaped(edit.newValue, line: line)
                output += Array("</\(element.name)>".utf8)
                copied = element.range.upperBound
                continue
            }
            output += bytes[copied..<contentRange.lowerBound]
            output += try newContent(for: element, contentRange: contentRange, edit: edit, line: line)
            copied = contentRange.upperBound
        }
        output += bytes[copied...]
        try verify(output, expected: expected)
        return output
    }

    /// The new raw content of a string element: in placeholder mode only the token's bytes in
    /// the element's text change when that gives the right value; otherwise the whole value,
    /// escaped.
    private func newContent(
        for element: ScannedElement, contentRange: Range<Int>, edit: PlistStringEdit,
        line: Int
    ) throws -> [UInt8] {
        if let placeholder = edit.placeholder,
            !placeholder.token.utf8.contains(where: {
                $0 == UInt8(ascii: "&") || $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ">")
                    || $0 == UInt8(ascii: "\r")
            })
        {
            let token = Array(placeholder.token.utf8)
            let replacement = try escaped(placeholder.replacement, line: line)
            var content: [UInt8] = []
            var position = contentRange.lowerBound
            for segment in element.segments where segment.kind == .text {
                content += bytes[position..<segment.range.lowerBound]
                var i = segment.range.lowerBound
                while i < segment.range.upperBound {
                    if i + token.count <= segment.range.upperBound, bytes[i..<(i + token.count)].elementsEqual(token) {
                        content += replacement
                        i += token.count
                    } else {
                        content.append(bytes[i])
                        i += 1
                    }
                }
                position = segment.range.upperBound
            }
            content += bytes[position..<contentRange.upperBound]
            if let segments = PlistXMLScanner.segments(ofContent: content),
                PlistXMLScanner.decode(segments, in: content) == edit.newValue
            {
                return content
            }
        }
        return try escaped(edit.newValue, line: line)
    }

    /// `value` as XML character data: `&`, `<`, `>` escaped, a carriage return as `&#13;`
    /// (a literal one would be read back as a line feed). Characters XML 1.0 cannot hold are an error.
    func escaped(_ value: String, line: Int) throws -> [UInt8] {
        var out: [UInt8] = []
        for scalar in value.unicodeScalars {
            switch scalar {
            case "&": out += Array("&amp;".utf8)
            case "<": out += Array("&lt;".utf8)
            case ">": out += Array("&gt;".utf8)
            case "\r": out += Array("&#13;".utf8)
            case "\t", "\n": out.append(UInt8(scalar.value))
            default:
                if scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF {
                    throw VersionStampError(
                        .unrepresentableValue, path: path, line: line,
                        message:
                            "the new value contains the character U+\(String(scalar.value, radix: 16, uppercase: true)), which an XML plist cannot hold"
                    )
                }
                out += Array(String(scalar).utf8)
            }
        }
        return out
    }

    /// Parses `output` again; it must be the same property list with only `expected` changed.
    private func verify(_ output: [UInt8], expected: [Int: String]) throws {
        let reread: PlistXMLEditor
        do {
            reread = try PlistXMLEditor(bytes: output, path: path)
        } catch {
            throw VersionStampError(
                .internalError, path: path,
                message: "internal error: the edited plist does not parse (\(error)); the file was left untouched")
        }
        /// The tree without lines, strings replaced by `values[slot]` where given.
        func normalized(_ node: PlistNode, _ values: [Int: String]) -> PlistNode {
            switch node {
            case let .dictionary(entries, _):
                return .dictionary(entries.map { ($0.key, normalized($0.value, values)) }, line: nil)
            case let .array(items, _): return .array(items.map { normalized($0, values) }, line: nil)
            case let .string(string):
                return .string(PlistString(value: values[string.slot] ?? string.value, slot: string.slot, line: nil))
            case let .other(type, _): return .other(type: type, line: nil)
            }
        }
        guard normalized(root, expected) == normalized(reread.root, [:]) else {
            throw VersionStampError(
                .internalError, path: path,
                message:
                    "internal error: the edited plist would differ in more than the stamped values; the file was left untouched"
            )
        }
    }
}

/// Builds the ``PlistNode`` tree from libxml2's elements and the scanner's, checking that
/// both saw the same document.
private struct Builder {
    let bytes: [UInt8]
    let path: String
    let lineStarts: [Int]
    var strings: [ScannedElement] = []

    static let scalarTypes: Set<String> = ["integer", "real", "true", "false", "date", "data"]

    func line(_ element: ScannedElement) -> Int {
        PlistXMLEditor.line(of: element.range.lowerBound, in: lineStarts)
    }

    func checkSame(_ parsed: LibXMLElement, _ scanned: ScannedElement) throws {
        let scannedText = PlistXMLScanner.decode(scanned.segments, in: bytes)
        guard parsed.name == scanned.name, parsed.children.count == scanned.children.count,
            parsed.text == scannedText
        else {
            throw VersionStampError(
                .internalError, path: path, line: line(scanned),
                message:
                    "internal error: cannot locate <\(parsed.name)> in the file's bytes; the file was left untouched")
        }
        for (p, s) in zip(parsed.children, scanned.children) { try checkSame(p, s) }
    }

    mutating func node(_ parsed: LibXMLElement, _ scanned: ScannedElement) throws -> PlistNode {
        let line = line(scanned)
        switch parsed.name {
        case "dict":
            try requireNoText(parsed, line: line)
            var entries: [(key: String, value: PlistNode)] = []
            var index = 0
            while index < parsed.children.count {
                let keyElement = parsed.children[index]
                guard keyElement.name == "key", keyElement.children.isEmpty else {
                    throw VersionStampError(
                        .malformedPlist, path: path, line: self.line(scanned.children[index]),
                        message: "expected <key> in <dict>, found <\(keyElement.name)>")
                }
                guard index + 1 < parsed.children.count else {
                    throw VersionStampError(
                        .malformedPlist, path: path, line: self.line(scanned.children[index]),
                        message: "the key '\(keyElement.text)' has no value")
                }
                entries.append((keyElement.text, try node(parsed.children[index + 1], scanned.children[index + 1])))
                index += 2
            }
            return .dictionary(entries, line: line)
        case "array":
            try requireNoText(parsed, line: line)
            var items: [PlistNode] = []
            for (p, s) in zip(parsed.children, scanned.children) { items.append(try node(p, s)) }
            return .array(items, line: line)
        case "string":
            guard parsed.children.isEmpty else {
                throw VersionStampError(
                    .malformedPlist, path: path, line: line, message: "<string> must not contain elements")
            }
            strings.append(scanned)
            return .string(PlistString(value: parsed.text, slot: strings.count - 1, line: line))
        case let name where Self.scalarTypes.contains(name):
            guard parsed.children.isEmpty else {
                throw VersionStampError(
                    .malformedPlist, path: path, line: line, message: "<\(name)> must not contain elements")
            }
            return .other(type: name, line: line)
        default:
            throw VersionStampError(
                .malformedPlist, path: path, line: line,
                message: "unexpected <\(parsed.name)>: not a property list element")
        }
    }

    func requireNoText(_ parsed: LibXMLElement, line: Int) throws {
        guard parsed.text.allSatisfy(\.isWhitespace) else {
            throw VersionStampError(
                .malformedPlist, path: path, line: line, message: "unexpected text in <\(parsed.name)>")
        }
    }
}

/// An element of the tree libxml2 built, with its direct text decoded by libxml2.
struct LibXMLElement {
    var name: String
    var line: Int
    /// The concatenated text and CDATA directly inside the element, as libxml2 decoded it.
    var text: String
    var children: [LibXMLElement]
}

/// Parses plist XML with libxml2, safely: no network (`XML_PARSE_NONET`), no entity
/// substitution (`XML_PARSE_NOENT` off), no DTD loading (`XML_PARSE_DTDLOAD` off), nothing
/// printed to stderr. A document that declares an entity is refused as soon as libxml2 reads
/// the declaration (the parser is stopped before any reference), so neither a file, the
/// network nor an exponential "billion laughs" expansion is ever reached.
enum PlistLibXMLParser {
    /// Collects what the SAX callbacks see; reached through the parser context's `_private`.
    private final class Observer {
        var entity: (name: String, line: Int)?
        var error: (line: Int, message: String)?
    }

    static func parse(_ bytes: [UInt8], url: String) throws -> LibXMLElement {
        xmlInitParser()
        // Errors raised without a parser context (the encoding converters' "encoding error :
        // input conversion failed", "I/O error : encoder error") bypass the SAX handler below
        // and go to libxml2's generic handler, which prints to stderr (a fuzzing finding).
        // A structured handler for this thread takes them instead; the parse still fails and
        // is reported through the context's own error.
        xmlSetStructuredErrorFunc(nil) { _, _ in }
        guard let context = xmlNewParserCtxt() else {
            throw VersionStampError(
                .malformedPlist, path: url, message: "malformed XML: libxml2 could not create a parser")
        }
        defer { xmlFreeParserCtxt(context) }
        let observer = Observer()
        context.pointee._private = Unmanaged.passUnretained(observer).toOpaque()
        if let sax = context.pointee.sax {
            sax.pointee.entityDecl = { rawContext, name, _, _, _, _ in
                PlistLibXMLParser.refuseEntity(rawContext, name)
            }
            sax.pointee.unparsedEntityDecl = { rawContext, name, _, _, _ in
                PlistLibXMLParser.refuseEntity(rawContext, name)
            }
            sax.pointee.externalSubset = nil
            sax.pointee.resolveEntity = nil
            sax.pointee.serror = { userData, error in
                guard let userData, let error else { return }
                let context = userData.assumingMemoryBound(to: xmlParserCtxt.self)
                guard let raw = context.pointee._private else { return }
                let observer = Unmanaged<Observer>.fromOpaque(raw).takeUnretainedValue()
                guard error.pointee.level.rawValue >= XML_ERR_ERROR.rawValue, observer.error == nil else { return }
                let message = error.pointee.message.map { String(cString: $0) } ?? "malformed XML"
                // One line: libxml2 puts details (such as the bad bytes) on further lines.
                let oneLine = message.trimmingTrailingWhitespace().split(whereSeparator: \.isNewline).joined(
                    separator: " ")
                observer.error = (Int(error.pointee.line), oneLine)
            }
        }
        let options = Int32(
            XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue
                | XML_PARSE_NOWARNING.rawValue | XML_PARSE_NOCDATA.rawValue)
        let document: xmlDocPtr? = bytes.withUnsafeBufferPointer { buffer in
            // No bytes, no document (libxml2 reports an empty one the same way).
            guard let base = buffer.baseAddress else { return nil }
            return base.withMemoryRebound(to: CChar.self, capacity: buffer.count) { pointer in
                xmlCtxtReadMemory(context, pointer, Int32(buffer.count), url, nil, options)
            }
        }
        defer { if let document { xmlFreeDoc(document) } }
        if let entity = observer.entity {
            throw VersionStampError.entityDeclaration(path: url, line: entity.line, name: entity.name)
        }
        if let error = observer.error {
            throw VersionStampError(
                .malformedPlist, path: url, line: error.line, message: "malformed XML: \(error.message)")
        }
        guard let document, let root = xmlDocGetRootElement(document) else {
            throw VersionStampError(.malformedPlist, path: url, message: "malformed XML: not well-formed XML")
        }
        return try element(root, url: url)
    }

    private static func refuseEntity(_ rawContext: UnsafeMutableRawPointer?, _ name: UnsafePointer<xmlChar>?) {
        guard let rawContext else { return }
        let context = rawContext.assumingMemoryBound(to: xmlParserCtxt.self)
        if let raw = context.pointee._private {
            let observer = Unmanaged<Observer>.fromOpaque(raw).takeUnretainedValue()
            if observer.entity == nil {
                let line = context.pointee.input.map { Int($0.pointee.line) } ?? 0
                observer.entity = (name.map { String(cString: $0) } ?? "?", line)
            }
        }
        xmlStopParser(context)
    }

    private static func element(_ node: xmlNodePtr, url: String) throws -> LibXMLElement {
        var result = LibXMLElement(
            name: String(cString: node.pointee.name), line: Int(xmlGetLineNo(node)),
            text: "", children: [])
        var child = node.pointee.children
        while let current = child {
            switch current.pointee.type {
            case XML_ELEMENT_NODE:
                result.children.append(try element(current, url: url))
            case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
                if let content = current.pointee.content { result.text += String(cString: content) }
            case XML_ENTITY_REF_NODE:
                throw VersionStampError.entityDeclaration(
                    path: url, line: Int(xmlGetLineNo(current)), name: String(cString: current.pointee.name))
            default:
                break
            }
            child = current.pointee.next
        }
        return result
    }
}

extension String {
    func trimmingTrailingWhitespace() -> String {
        var result = self
        while let last = result.last, last.isWhitespace { result.removeLast() }
        return result
    }
}
