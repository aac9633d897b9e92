/// A database as a patch header names it (``PatchHeader/base`` and ``PatchHeader/result``), and
/// a release as a feed's facts name it: its `user_version` and the SHA-256 of its file.
public struct DatabaseVersion: Equatable, Hashable, Sendable {
    /// The database's `PRAGMA user_version`.
    public let userVersion: Int64
    /// The SHA-256 of the database file, 64 lowercase hexadecimal digits.
    public let sha256: String

    /// A database's version.
    public init(userVersion: Int64, sha256: String) {
        self.userVersion = userVersion
        self.sha256 = sha256
    }
}
