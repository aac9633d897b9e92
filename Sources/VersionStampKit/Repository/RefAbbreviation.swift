/// git's `shorten_unambiguous_ref`, as `git rev-parse --abbrev-ref HEAD` uses it.
///
/// The rev-parse rules, most general first, say how a short name resolves: `NAME`,
/// `refs/NAME`, `refs/tags/NAME`, `refs/heads/NAME`, `refs/remotes/NAME`,
/// `refs/remotes/NAME/HEAD`. A full name is shortened by the most specific rule it fits
/// whose short name no other rule resolves: in strict mode (`core.warnAmbiguousRefs`, on by
/// default) no other rule at all, otherwise no earlier rule. So a local branch `origin/main`
/// beside the remote-tracking `origin/main` is `heads/origin/main` when strict.
///
/// git 2.39 matches a rule with `sscanf("refs/remotes/%s/HEAD")`, whose `%s` takes the whole
/// rest of the name; so the last rule fits every remote-tracking name, with that rest as the
/// short name. This reproduces that.
enum RefAbbreviation {
    static let rules: [(prefix: String, suffix: String)] = [
        ("", ""), ("refs/", ""), ("refs/tags/", ""), ("refs/heads/", ""),
        ("refs/remotes/", ""), ("refs/remotes/", "/HEAD"),
    ]

    /// The abbreviation of `refname`; `exists` tells whether a full name names a reference.
    static func shorten(_ refname: String, strict: Bool, exists: (String) -> Bool) -> String {
        for i in stride(from: rules.count - 1, to: 0, by: -1) {
            let prefix = rules[i].prefix
            guard refname.hasPrefix(prefix), refname.utf8.count > prefix.utf8.count else { continue }
            let short = String(refname.dropFirst(prefix.count))
            let checked = strict ? rules.indices.filter { $0 != i } : Array(0..<i)
            if !checked.contains(where: { exists(rules[$0].prefix + short + rules[$0].suffix) }) { return short }
        }
        return refname
    }
}
