/// Checks that a document carries valid signatures from at least `threshold` of a role's keys.
enum ThresholdVerification {
    /// Counts each key of the role once: a missing signature, a bad one, or a key the delegator does not
    /// list does not count, and neither does a second signature by a key already counted under another key
    /// id (the same public key listed twice: tough's CVE-2020-15093). Throws `belowThreshold`, with what was
    /// wrong with each signature, when short: an Ed25519 key `keys` defines is named by its public key (as
    /// `dbgen keys generate` prints it), any other by the first 16 digits of its id.
    static func verify(_ metadata: Metadata, role: String, roleKeys: RoleKeys, keys: [String: PublicKey]) throws {
        var counted: Set<PublicKey.Identity> = []
        var problems: [String] = []
        for signature in metadata.signatures {
            let defined = keys[signature.keyID].flatMap { $0.keyType == "ed25519" ? $0.publicValue : nil }
            let name = defined ?? String(signature.keyID.prefix(16))
            guard roleKeys.keyIDs.contains(signature.keyID) else {
                problems.append("key \(name) is not a key of \(role)")
                continue
            }
            guard let key = keys[signature.keyID] else {
                problems.append("key \(name) of \(role) is not defined")
                continue
            }
            if let problem = key.problem(signature: signature.signature, message: metadata.canonicalSigned) {
                problems.append("key \(name): \(problem)")
            } else if let identity = key.identity, !counted.insert(identity).inserted {
                // The same key under two ids: its id tells which entry is the second.
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
