/// A targets role's `delegations`: keys, and either a list of delegated roles or succinct hash bins.
public struct Delegations: Sendable {
    /// Keys by id.
    public let keys: [String: PublicKey]
    /// Delegated roles in priority order (nil when the delegation is succinct).
    public let roles: [DelegatedRole]?
    /// Hash-bin delegation (nil when roles are listed).
    public let succinctRoles: SuccinctRoles?

    init(_ reader: JSONFieldReader) throws {
        keys = try readKeys(try reader.object("keys"))
        let hasRoles = reader.object.contains("roles"), hasSuccinct = reader.object.contains("succinct_roles")
        guard hasRoles != hasSuccinct else {
            throw reader.fail("roles", "exactly one of roles and succinct_roles is required")
        }
        if hasRoles {
            var roles: [DelegatedRole] = []
            for (index, element) in try reader.array("roles").enumerated() {
                let path = reader.member("roles[\(index)]")
                let role = try DelegatedRole(try JSONFieldReader(element, document: reader.document, path: path))
                guard !roles.contains(where: { $0.name == role.name }) else {
                    throw reader.fail("roles", "\(role.name) appears twice")
                }
                guard !Root.topLevelRoles.contains(role.name) else {
                    throw reader.fail("roles", "\(role.name) is a top-level role name")
                }
                roles.append(role)
            }
            self.roles = roles
            succinctRoles = nil
        } else {
            roles = nil
            succinctRoles = try SuccinctRoles(try reader.object("succinct_roles"))
        }
    }

    /// The keys and threshold of a delegated role, or nil if this delegation does not name it.
    public func roleKeys(for name: String) -> RoleKeys? {
        if let roles { return roles.first { $0.name == name }?.keys }
        if let succinctRoles, succinctRoles.contains(roleName: name) { return succinctRoles.keys }
        return nil
    }

    /// The roles trusted for a target path, in order, each with whether it is terminating: the
    /// listed roles whose paths match, or the one succinct bin of the path, which is terminating
    /// (TAP 15: no other role is trusted for a path its bin is).
    public func roles(for targetPath: String) -> [(name: String, terminating: Bool)] {
        if let roles {
            return roles.filter { $0.isDelegated(targetPath) }.map { ($0.name, $0.terminating) }
        }
        if let succinctRoles { return [(succinctRoles.roleName(for: targetPath), true)] }
        return []
    }
}
