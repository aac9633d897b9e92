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

/// A target: its path, length, hashes and the repository's `custom` facts about it.
public struct TargetFile: Sendable {
    /// The target path (the key in `targets`).
    public let path: String
    public let length: Int64
    /// At least one, in the order written (the first names the consistent-snapshot file).
    public let hashes: [FileHash]
    /// The entry as received, including `custom`.
    public let json: JSONObject
    /// The document that lists it (`targets.json`, or a delegated role's), for errors.
    let document: String

    init(path: String, _ reader: JSONFieldReader) throws {
        self.path = path
        document = reader.document
        length = try reader.integer("length", in: 0...Int64.max)
        hashes = try FileHash.read(try reader.object("hashes"))
        json = reader.object
    }

    /// A target entry for some bytes (SHA-256), with optional `custom` facts.
    public init(path: String, data: Data, custom: JSONValue? = nil) {
        self.path = path
        length = Int64(data.count)
        hashes = [FileHash.sha256(data)]
        document = "targets.json"
        var json = JSONObject([("length", .integer(length)), ("hashes", .object(FileHash.json(hashes)))])
        if let custom { json["custom"] = custom }
        self.json = json
    }

    /// `custom`, if any.
    public var custom: JSONValue? { json["custom"] }

    /// Checks bytes against the length and every hash (5.7.1, 5.7.3); the error names the target.
    public func verify(_ data: Data) throws {
        guard Int64(data.count) == length else {
            throw TUFError.lengthOrHashMismatch(document: path, reason: "\(data.count) bytes, expected \(length)")
        }
        try FileHash.verify(hashes, data: data, document: path)
    }
}
