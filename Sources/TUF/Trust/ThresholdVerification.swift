/// Checks that a document carries valid signatures from at least `threshold` of a role's keys.
enum ThresholdVerification {
    /// Counts each key of the role once: a missing signature, a bad one, or a key the delegator does not
    /// list does not count, and neither does a second signature by a key already counted under another key
    /// id (the same public key listed twice: tough's CVE-2020-15093). Throws `belowThreshold`, with what was
    /// wrong with each signature, when short.
    static func verify(_ metadata: Metadata, role: String, roleKeys: RoleKeys, keys: [String: PublicKey]) throws {
        var counted: Set<PublicKey.Identity> = []
        var problems: [String] = []
        for signature in metadata.signatures {
            guard roleKeys.keyIDs.contains(signature.keyID) else {
                problems.append("key \(signature.keyID.prefix(16)) is not a key of \(role)")
                continue
            }
            guard let key = keys[signature.keyID] else {
                problems.append("key \(signature.keyID.prefix(16)) of \(role) is not defined")
                continue
            }
            if let problem = key.problem(signature: signature.signature, message: metadata.canonicalSigned) {
                problems.append("key \(signature.keyID.prefix(16)): \(problem)")
            } else if let identity = key.identity, !counted.insert(identity).inserted {
                problems.append("key \(signature.keyID.prefix(16)) is a key already counted, under another id")
            }
        }
        guard counted.count >= roleKeys.threshold else {
            throw TUFError.belowThreshold(
                document: metadata.document, role: role, valid: counted.count, threshold: roleKeys.threshold,
                problems: problems
            )
        }
    }
}
