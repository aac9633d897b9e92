import Crypto
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

/// One entry of a `hashes` object: an algorithm (`sha256`, `sha384`, `sha512`) and the digest in hex.
public struct FileHash: Equatable, Sendable {
    public let algorithm: String
    public let hex: String

    /// A hash entry.
    public init(algorithm: String, hex: String) {
        self.algorithm = algorithm
        self.hex = hex
    }

    /// A running hash of one of the supported algorithms, or nil for any other.
    public static func hasher(_ algorithm: String) -> RunningHash? {
        switch algorithm {
        case "sha256": return RunningHash(SHA256())
        case "sha384": return RunningHash(SHA384())
        case "sha512": return RunningHash(SHA512())
        default: return nil
        }
    }

    /// The SHA-256 entry of some bytes.
    public static func sha256(_ data: Data) -> FileHash {
        FileHash(algorithm: "sha256", hex: Hex.encode(SHA256.hash(data: data)))
    }

    static func read(_ reader: JSONFieldReader) throws -> [FileHash] {
        var hashes: [FileHash] = []
        for (algorithm, _) in reader.object.members {
            hashes.append(FileHash(algorithm: algorithm, hex: try reader.string(algorithm)))
        }
        guard !hashes.isEmpty else {
            throw TUFError.malformed(document: reader.document, reason: "\(reader.path): no hash")
        }
        return hashes
    }

    /// Checks every hash; an algorithm this client does not have fails the check.
    static func verify(_ hashes: [FileHash], data: Data, document: String) throws {
        for hash in hashes {
            guard var hasher = hasher(hash.algorithm) else {
                throw TUFError.lengthOrHashMismatch(document: document, reason: "unsupported hash \(hash.algorithm)")
            }
            hasher.update(data)
            let digest = hasher.finalizeHex()
            guard digest == hash.hex.lowercased() else {
                throw TUFError.lengthOrHashMismatch(
                    document: document, reason: "\(hash.algorithm) is \(digest), expected \(hash.hex)"
                )
            }
        }
    }

    static func json(_ hashes: [FileHash]) -> JSONObject {
        JSONObject(hashes.map { ($0.algorithm, .string($0.hex)) })
    }
}
