/// A `dbgen diff` patch on disk, checked and its header read: what
/// ``UpdateInstaller/installPatch(_:)`` installs. Its header is read here once (the first
/// lines only), so a caller that checks it against what it expects (a feed client against a
/// target's facts) and the installer read it the same way; the installer then reads the patch
/// once more, whole, as it applies it.
public struct PatchFile: Equatable, Sendable {
    /// The patch's path.
    public let path: String
    /// Its header (``PatchHeader``), or nil for a patch without one (hand-written, or a
    /// `dbgen diff --table` patch), which the installer checks by `user_version` only.
    public let header: PatchHeader?

    /// The patch at `path`, its SHA-256 checked first when `sha256` is given (the file read
    /// whole once; a caller that hashed it as it wrote it passes nil).
    ///
    /// - Throws: ``LayeredDatabaseError/fileNotFound(path:)`` unless it is a regular file,
    ///   ``LayeredDatabaseError/checksumMismatch(path:expected:actual:)``, or
    ///   ``LayeredDatabaseError/invalidPatchHeader(path:line:reason:)``.
    public init(at path: String, sha256: String? = nil) throws {
        _ = try DatabaseFile.size(path)
        if let sha256 {
            let digest = try DatabaseFile.sha256(of: path)
            guard digest == sha256.lowercased() else {
                throw LayeredDatabaseError.checksumMismatch(path: path, expected: sha256.lowercased(), actual: digest)
            }
        }
        self.path = path
        header = try PatchHeader.read(fromPatchAt: path)
    }
}
