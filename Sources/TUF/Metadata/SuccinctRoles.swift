import Crypto
import FileSystemKit
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

/// Succinct hash-bin delegation (TAP 15): `2^bit_length` roles named `PREFIX-HEX`, one per bin of the first
/// 32 bits of a target path's SHA-256, all sharing one set of keys.
public struct SuccinctRoles: Sendable {
    public let keys: RoleKeys
    /// 1 to 32.
    public let bitLength: Int
    public let namePrefix: String

    init(_ reader: JSONFieldReader) throws {
        keys = try RoleKeys(reader)
        bitLength = Int(try reader.integer("bit_length", in: 1...32))
        namePrefix = try reader.string("name_prefix")
        do {
            _ = try URLQuoting.documentFileName(of: "\(namePrefix)-" + String(repeating: "f", count: suffixLength))
        } catch let error as CheckedNameError {
            throw reader.fail("name_prefix", "cannot name the bins' documents: \(error)")
        }
    }

    private var suffixLength: Int { String((1 << bitLength) - 1, radix: 16).count }

    /// The bin role for a target path.
    public func roleName(for targetPath: String) -> String {
        let digest = Array(SHA256.hash(data: Data(targetPath.utf8)))
        let first32 = digest.prefix(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        let bin = UInt64(first32) >> UInt64(32 - bitLength)
        let hex = String(bin, radix: 16)
        return "\(namePrefix)-" + String(repeating: "0", count: suffixLength - hex.count) + hex
    }

    /// Whether a role name is one of the bins.
    public func contains(roleName: String) -> Bool {
        let prefix = namePrefix + "-"
        guard roleName.hasPrefix(prefix) else { return false }
        let suffix = roleName.dropFirst(prefix.count)
        guard suffix.count == suffixLength, let bin = UInt64(suffix, radix: 16) else { return false }
        return bin < UInt64(1) << UInt64(bitLength)
    }
}
