/// The history engine's errors, made in one place: the two kinds it reports are a damaged
/// repository (an object that cannot be read as what it should be) and a path outside it.
enum HistoryErrors {
    /// An object of the repository that cannot be read as what it should be.
    static func damaged(_ message: String) -> VersionStampError {
        VersionStampError(.gitFailure, message: "the repository's history cannot be read: \(message); check it with 'git fsck'")
    }

    /// A counted path git would read as a pattern (`*`, `?`, `[`) or pathspec magic (a leading
    /// `:`): refused rather than counted differently from git.
    static func pathPattern(_ path: String) -> VersionStampError {
        VersionStampError(.usage, path: path, message: "the path contains a pattern character (* ? [) or starts with ':', "
            + "which git would read as a pathspec pattern; --path takes a directory or file")
    }

    /// A counted path that leads outside the repository whose work tree is `root`.
    static func pathOutside(_ path: String, root: String?) -> VersionStampError {
        VersionStampError(.pathOutsideRepository, path: path, message: "the path is outside the repository\(root.map { " at \($0)" } ?? ""); "
            + "--path must name a directory or file inside it")
    }
}
