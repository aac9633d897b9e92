/// Where a ``RevisionReader`` remembers its history answers between runs.
public enum HistoryCaching: Equatable, Sendable {
    /// In the repository's common git dir (`.git/versionstamp/history`), shared by its linked
    /// worktrees. The default.
    case inGitDirectory
    /// In the file `history` of this directory (`--cache-dir DIR`), created when missing: for a
    /// sandboxed build (a SwiftPM build-tool plugin) that may write only its own work directory.
    case inDirectory(String)
    /// Nowhere: every answer is computed (as with `VERSIONSTAMP_COUNT_CACHE=0` in the environment).
    case off
}
