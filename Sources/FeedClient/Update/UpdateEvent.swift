/// What ``FeedUpdater`` reports while it works, in order: `checking`, then for an update
/// `downloading` (repeatedly), `installing` and `installed` for each step, or `nothingNew`.
public enum UpdateEvent: Equatable, Sendable {
    /// Fetching and verifying the metadata.
    case checking
    /// Nothing to install; the `user_version` in effect.
    case nothingNew(userVersion: Int64)
    /// The plan chosen.
    case planned(UpdatePlan)
    /// Bytes of the plan's files staged so far, of the plan's total (a resumed download starts
    /// at what was staged before), and the target being downloaded.
    case downloading(target: String, completedBytes: Int64, totalBytes: Int64)
    /// Verifying and installing a target through `UpdateInstaller`.
    case installing(target: String)
    /// A target is installed: the `user_version` now in effect.
    case installed(target: String, userVersion: Int64)
}
