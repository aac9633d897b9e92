import ShipyardVersion

/// VersionStampKit reads a repository's revision (with libgit2, and its history with a reader
/// of its own, see `HistoryEngine`) and stamps it into plist files (edited in place with
/// libxml2), Swift, JSON and xcconfig files.
public enum VersionStampKit {
    /// The version reported by `versionstamp --version` (Shipyard's one version number).
    public static var version: String { ShipyardVersion.current }
}
