/// Root's `roles`: the keys and threshold of each of the four top-level roles, each a field, so
/// that no lookup of a top-level role can miss.
public struct TopLevelRoles: Equatable, Sendable {
    /// Who may sign root (and, with the next root's own, the next root).
    public var root: RoleKeys
    /// Who may sign timestamp.
    public var timestamp: RoleKeys
    /// Who may sign snapshot.
    public var snapshot: RoleKeys
    /// Who may sign the top-level targets.
    public var targets: RoleKeys

    /// The four roles.
    public init(root: RoleKeys, timestamp: RoleKeys, snapshot: RoleKeys, targets: RoleKeys) {
        self.root = root
        self.timestamp = timestamp
        self.snapshot = snapshot
        self.targets = targets
    }

    /// The same keys and threshold for every role.
    public init(all roleKeys: RoleKeys) {
        self.init(root: roleKeys, timestamp: roleKeys, snapshot: roleKeys, targets: roleKeys)
    }

    /// The role named `name` (`root`, `timestamp`, `snapshot`, `targets`), or nil for any other
    /// name.
    public subscript(name: String) -> RoleKeys? {
        switch name {
        case Root.type: return root
        case Timestamp.type: return timestamp
        case Snapshot.type: return snapshot
        case Targets.type: return targets
        default: return nil
        }
    }

    /// Reads `signed.roles`: exactly the four names, each `{"keyids", "threshold"}`.
    init(_ reader: JSONFieldReader) throws {
        guard Set(reader.object.keys) == Set(Root.topLevelRoles) else {
            throw TUFError.malformed(
                document: reader.document,
                reason: "\(reader.path): must name exactly root, timestamp, snapshot and targets")
        }
        self.init(
            root: try RoleKeys(try reader.object(Root.type)),
            timestamp: try RoleKeys(try reader.object(Timestamp.type)),
            snapshot: try RoleKeys(try reader.object(Snapshot.type)),
            targets: try RoleKeys(try reader.object(Targets.type)))
    }

    /// The `roles` object, in ``Root/topLevelRoles``' order.
    var json: JSONObject {
        JSONObject([
            (Root.type, .object(root.json)), (Timestamp.type, .object(timestamp.json)),
            (Snapshot.type, .object(snapshot.json)), (Targets.type, .object(targets.json)),
        ])
    }
}
