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

/// What timestamp says of snapshot, and snapshot of each targets document: a version, and optionally the
/// length and hashes of its bytes.
public struct MetaFile: Equatable, Sendable {
    public let version: Int64
    /// The length in bytes, if given.
    public let length: Int64?
    /// Hashes by algorithm, in the order written, if given.
    public let hashes: [FileHash]?

    /// A description of a document.
    public init(version: Int64, length: Int64? = nil, hashes: [FileHash]? = nil) {
        self.version = version
        self.length = length
        self.hashes = hashes
    }

    init(_ reader: JSONFieldReader) throws {
        version = try reader.integer("version", in: 1...Int64.max)
        length = reader.object.contains("length") ? try reader.integer("length", in: 0...Int64.max) : nil
        hashes = reader.object.contains("hashes") ? try FileHash.read(try reader.object("hashes")) : nil
    }

    /// Checks the length and each hash given; `document` names the bytes in the error.
    public func verify(_ data: Data, document: String) throws {
        if let length, Int64(data.count) != length {
            throw TUFError.lengthOrHashMismatch(document: document, reason: "\(data.count) bytes, expected \(length)")
        }
        try hashes.map { try FileHash.verify($0, data: data, document: document) }
    }

    var json: JSONObject {
        var object = JSONObject([("version", .integer(version))])
        if let length { object["length"] = .integer(length) }
        if let hashes { object["hashes"] = .object(FileHash.json(hashes)) }
        return object
    }
}
