/// Who made an edit and when: edits are ordered by `(hlc, device)`, device ids compared as 16
/// unsigned bytes. The later of two edits of one `last-edit-wins` cell wins.
public struct SyncEditStamp: Hashable, Comparable, Sendable {
    /// When the edit was made (after the server's clamping).
    public var hlc: HLC
    /// The device that made it.
    public var device: SyncDeviceID

    /// The stamp of an edit made by `device` at `hlc`.
    public init(hlc: HLC, device: SyncDeviceID) {
        self.hlc = hlc
        self.device = device
    }

    public static func < (lhs: SyncEditStamp, rhs: SyncEditStamp) -> Bool {
        lhs.hlc != rhs.hlc ? lhs.hlc < rhs.hlc : lhs.device < rhs.device
    }
}
