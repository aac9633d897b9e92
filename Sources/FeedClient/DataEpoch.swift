import TUF

/// A feed's data epoch: a number only the root keys can raise, which lets a publisher put every
/// device back on real data after a leaked key published some.
///
/// A device installs only data newer than the data in effect (a greater `user_version`), so a
/// release a leaked key published at `user_version` 2147483647 would stay on devices after
/// `dbgen feed rotate`. The epoch is a member of root's `signed`, `x-shipyard-data-epoch` (absent:
/// 0), which `dbgen feed rotate --reset-data` raises by one in the new root it writes; every
/// release carries the epoch it was published under (``ReleaseFacts/dataEpoch``). A device orders
/// releases by (epoch, `user_version`): it installs only releases of its trusted root's epoch,
/// and when that epoch is above the one its installed data came under, it removes the installed
/// update (the bundled database is in effect again) and installs the newest release of the new
/// epoch, whatever its `user_version`. Only a root the current root keys sign can raise it: the
/// leaked key, once rotated out, signs no root a device accepts, and a release that claims an
/// epoch above its root's is ignored.
public enum DataEpoch {
    /// The member of root's `signed` that holds the epoch.
    public static let rootMember = "x-shipyard-data-epoch"

    /// The epoch of `root` (0 when it names none).
    ///
    /// - Throws: `TUFError.malformed` naming `document` when the member is not an integer from 0.
    public static func of(_ root: Root, document: String = "root.json") throws -> Int64 {
        guard let value = root.members[rootMember] else { return 0 }
        guard case .integer(let epoch) = value, epoch >= 0 else {
            throw TUFError.malformed(
                document: document, reason: "signed.\(rootMember): expected an integer from 0 to \(Int64.max)")
        }
        return epoch
    }
}
