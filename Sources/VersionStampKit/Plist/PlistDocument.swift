import Foundation

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
            throw VersionStampError(.unsupportedPlist, path: path, message: "unsupported binary plist version '\(String(decoding: bytes.prefix(8), as: UTF8.self))'; versionstamp reads bplist00")
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
