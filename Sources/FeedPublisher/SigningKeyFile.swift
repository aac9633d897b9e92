import FileSystemKit
import EssentialsSupport
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
import TUF

/// The key file: the 32-byte Ed25519 seed as 64 lowercase hexadecimal digits and a newline,
/// mode 0600.
public enum SigningKeyFile {
    /// The file's text for `key`.
    public static func text(of key: Ed25519SigningKey) -> String {
        Hex.encode(key.rawRepresentation) + "\n"
    }

    /// The key a key file's text holds (surrounding whitespace ignored).
    ///
    /// - Throws: ``FeedPublisherError`` naming `source` (never quoting the text).
    public static func key(fromText text: String, source: String) throws -> Ed25519SigningKey {
        let hex = text.trimmingWhitespaceAndNewlines()
        let seed = hex.utf8.count == 64 ? Hex.decode(hex) : nil
        guard let seed, let key = try? Ed25519SigningKey(rawRepresentation: seed) else {
            throw FeedPublisherError(
                source, "not an Ed25519 key file (expected the 32-byte seed as 64 hexadecimal digits)")
        }
        return key
    }

    /// Writes a new key file at `path`, mode 0600, atomically: refuses an existing file unless
    /// `replacing` (whose permissions are first narrowed to 0600, so the key is never readable
    /// by others, even for a moment).
    ///
    /// - Throws: ``FeedPublisherError`` naming `path`; nothing is then written.
    public static func write(_ key: Ed25519SigningKey, to path: String, replacing: Bool = false) throws {
        let contents = Data(text(of: key).utf8)
        var info = stat()
        if lstat(path, &info) == 0 {
            guard replacing else { throw FeedPublisherError(path, "the file exists (pass --force to replace it)") }
            guard (info.st_mode & S_IFMT) == S_IFREG else { throw FeedPublisherError(path, "not a regular file") }
            guard chmod(path, 0o600) == 0 else {
                throw FeedPublisherError(path, "cannot make it private (\(String(cString: strerror(errno))))")
            }
            try FeedPublisherError.about(path) { try AtomicFile.replace(path, with: contents, tag: "key") }
            return
        }
        let created = try FeedPublisherError.about(path) {
            try AtomicFile.create(path, with: contents, permissions: 0o600, tag: "key")
        }
        guard created else { throw FeedPublisherError(path, "the file exists (pass --force to replace it)") }
    }
}
