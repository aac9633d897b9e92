import CLibXML2

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
    /// Why libxml2 did not give a tree.
    enum Failure: Error, Equatable {
        case malformed(line: Int?, message: String)
        case entity(line: Int?, name: String)
    }

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
            throw Failure.malformed(line: nil, message: "libxml2 could not create a parser")
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
                let oneLine = message.trimmingTrailingWhitespace().split(whereSeparator: \.isNewline).joined(separator: " ")
                observer.error = (Int(error.pointee.line), oneLine)
            }
        }
        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue
            | XML_PARSE_NOWARNING.rawValue | XML_PARSE_NOCDATA.rawValue)
        let document: xmlDocPtr? = bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) { pointer in
                xmlCtxtReadMemory(context, pointer, Int32(buffer.count), url, nil, options)
            }
        }
        defer { if let document { xmlFreeDoc(document) } }
        if let entity = observer.entity {
            throw Failure.entity(line: entity.line, name: entity.name)
        }
        if let error = observer.error {
            throw Failure.malformed(line: error.line, message: error.message)
        }
        guard let document, let root = xmlDocGetRootElement(document) else {
            throw Failure.malformed(line: nil, message: "not well-formed XML")
        }
        return try element(root)
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

    private static func element(_ node: xmlNodePtr) throws -> LibXMLElement {
        var result = LibXMLElement(name: String(cString: node.pointee.name), line: Int(xmlGetLineNo(node)),
                                   text: "", children: [])
        var child = node.pointee.children
        while let current = child {
            switch current.pointee.type {
            case XML_ELEMENT_NODE:
                result.children.append(try element(current))
            case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
                if let content = current.pointee.content { result.text += String(cString: content) }
            case XML_ENTITY_REF_NODE:
                throw Failure.entity(line: Int(xmlGetLineNo(current)), name: String(cString: current.pointee.name))
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
