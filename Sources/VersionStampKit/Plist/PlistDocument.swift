#if canImport(FoundationEssentials) && os(Linux)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A property list file opened for stamping: XML (edited in place, byte for byte) or binary
/// (rewritten binary).
struct PlistDocument {
    enum Storage {
        case xml(PlistXMLEditor)
        case binary(PlistBinaryEditor)
    }

    let path: String
    let original: Data
    let storage: Storage

    /// Parses `data`, read from `path` (used in messages). Binary when it starts with `bplist00`.
    init(data: Data, path: String) throws {
        self.path = path
        self.original = data
        let bytes = [UInt8](data)
        if bytes.starts(with: PlistBinaryEditor.magic) {
            storage = .binary(try PlistBinaryEditor(data: data, path: path))
        } else if bytes.starts(with: Array("bplist".utf8)) {
            throw VersionStampError(
                .unsupportedPlist, path: path,
                message:
                    "unsupported binary plist version '\(String(decoding: bytes.prefix(8), as: UTF8.self))'; versionstamp reads bplist00"
            )
        } else {
            storage = .xml(try PlistXMLEditor(bytes: bytes, path: path))
        }
    }

    /// The root value.
    var root: PlistNode {
        switch storage {
        case let .xml(editor): return editor.root
        case let .binary(editor): return editor.root
        }
    }

    /// The file's new content with `edits` applied (`original` when there are none).
    func applying(_ edits: [PlistStringEdit]) throws -> Data {
        guard !edits.isEmpty else { return original }
        switch storage {
        case let .xml(editor): return Data(try editor.applying(edits))
        case let .binary(editor): return try editor.applying(edits)
        }
    }
}

/// A parsed property list, as far as stamping needs it: containers and strings, with the
/// other value types (`integer`, `real`, `true`, `data`, …) kept as their type name.
indirect enum PlistNode: Equatable {
    case dictionary([(key: String, value: PlistNode)], line: Int?)
    case array([PlistNode], line: Int?)
    case string(PlistString)
    case other(type: String, line: Int?)

    static func == (lhs: PlistNode, rhs: PlistNode) -> Bool {
        switch (lhs, rhs) {
        case let (.dictionary(a, l1), .dictionary(b, l2)):
            return l1 == l2 && a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        case let (.array(a, l1), .array(b, l2)):
            return l1 == l2 && a == b
        case let (.string(a), .string(b)):
            return a == b
        case let (.other(a, l1), .other(b, l2)):
            return a == b && l1 == l2
        default:
            return false
        }
    }

    /// A short name of the node's type for messages: `dict`, `array`, `string`, `integer`, ….
    var typeName: String {
        switch self {
        case .dictionary: return "dict"
        case .array: return "array"
        case .string: return "string"
        case let .other(type, _): return type
        }
    }

    var line: Int? {
        switch self {
        case let .dictionary(_, line), let .array(_, line), let .other(_, line): return line
        case let .string(string): return string.line
        }
    }

    /// Every string value (dictionary keys excluded) with its key path, in document order.
    func strings(at path: PlistKeyPath = PlistKeyPath(components: [])) -> [(path: PlistKeyPath, string: PlistString)] {
        switch self {
        case let .dictionary(entries, _):
            return entries.flatMap { $0.value.strings(at: path.appending($0.key)) }
        case let .array(items, _):
            return items.enumerated().flatMap { $0.element.strings(at: path.appending(String($0.offset))) }
        case let .string(string):
            return [(path, string)]
        case .other:
            return []
        }
    }

    /// The outcome of looking a key path up.
    enum Lookup {
        case found(PlistString)
        /// The path leads to a value that is not a string.
        case notString(type: String, line: Int?)
        /// A component is missing: `parent` is the path that exists, `line` its container's.
        case missing(parent: PlistKeyPath, component: String, container: String, line: Int?)
    }

    /// Looks `path` up: components are dictionary keys, or indexes into arrays. With duplicate
    /// keys the last one wins, as in CoreFoundation and Python's plistlib.
    func lookup(_ path: PlistKeyPath) -> Lookup {
        var node = self
        var walked = PlistKeyPath(components: [])
        for component in path.components {
            switch node {
            case let .dictionary(entries, line):
                guard let entry = entries.last(where: { $0.key == component }) else {
                    return .missing(parent: walked, component: component, container: "dict", line: line)
                }
                node = entry.value
            case let .array(items, line):
                guard let index = Int(component), index >= 0, index < items.count,
                    component.allSatisfy(\.isASCII)
                else {
                    return .missing(parent: walked, component: component, container: "array", line: line)
                }
                node = items[index]
            default:
                return .missing(parent: walked, component: component, container: node.typeName, line: node.line)
            }
            walked = walked.appending(component)
        }
        if case let .string(string) = node { return .found(string) }
        return .notString(type: node.typeName, line: node.line)
    }
}

/// A string value of a parsed property list and where it sits.
struct PlistString: Equatable {
    /// The decoded value.
    var value: String
    /// The editor's handle for this string (an index into its list of strings).
    var slot: Int
    /// The 1-based line of the `<string>` element (XML only).
    var line: Int?
}

/// A change to one string of a property list.
struct PlistStringEdit: Equatable {
    var slot: Int
    var newValue: String
    /// In placeholder mode, the token and what replaced it: lets the XML editor change only
    /// the token's bytes when it can, keeping the rest of the string's raw text as it was.
    var placeholder: (token: String, replacement: String)?

    static func == (lhs: PlistStringEdit, rhs: PlistStringEdit) -> Bool {
        lhs.slot == rhs.slot && lhs.newValue == rhs.newValue
            && lhs.placeholder?.token == rhs.placeholder?.token
            && lhs.placeholder?.replacement == rhs.placeholder?.replacement
    }
}

extension String {
    /// Replaces every occurrence of `target` by `replacement`, comparing UTF-8 bytes exactly
    /// (no Unicode normalization, no locale), as a byte-preserving editor must.
    func replacingBytes(of target: String, with replacement: String) -> String {
        let bytes = Array(utf8), needle = Array(target.utf8)
        guard !needle.isEmpty, bytes.count >= needle.count else { return self }
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if index + needle.count <= bytes.count, bytes[index] == needle[0],
                bytes[index..<(index + needle.count)].elementsEqual(needle)
            {
                result.append(contentsOf: replacement.utf8)
                index += needle.count
            } else {
                result.append(bytes[index])
                index += 1
            }
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// True when `target` occurs in the string, comparing UTF-8 bytes exactly.
    func containsBytes(of target: String) -> Bool {
        let needle = Array(target.utf8)
        guard let first = needle.first else { return false }
        var utf8 = self.utf8[...]
        while let start = utf8.firstIndex(of: first) {
            if utf8[start...].starts(with: needle) { return true }
            utf8 = utf8[utf8.index(after: start)...]
        }
        return false
    }
}
