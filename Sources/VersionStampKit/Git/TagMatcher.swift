import CGit2
import Foundation

/// The tags `git describe --tags --match GLOB` may use, one per tagged commit, chosen as git
/// chooses: tags are read in reference-name order; an annotated tag wins over a lightweight
/// one on the same commit, and of two annotated tags the one with the later tagger date
/// (the first read on a tie); of two lightweight tags, the first read.
struct TagMatcher {
    /// A tag naming a commit.
    struct Name: Equatable {
        /// What describe prints: the tag object's own name for an annotated tag (which may
        /// differ from its reference), else the reference name after `refs/tags/`.
        var display: String
        /// 2 for an annotated tag, 1 for a lightweight one.
        var priority: Int
        /// The tagger date of an annotated tag (0 without a tagger line).
        var taggerDate: Int64
    }

    /// The glob (`fnmatch` without `FNM_PATHNAME`, as git's `wildmatch` with no flags: `*`
    /// also matches `/`), nil for every tag.
    let pattern: String?

    /// True when `name` (without `refs/tags/`) matches the pattern.
    func matches(_ name: String) -> Bool {
        guard let pattern else { return true }
        return fnmatch(pattern, name, 0) == 0
    }

    /// The matching `refs/tags/` references and the objects they point to, sorted by name:
    /// everything the chosen names depend on.
    func matchingReferences(in repository: GitRepository) throws -> [(name: String, target: git_oid)] {
        try tagReferences(repository).filter { matches(String($0.0.dropFirst("refs/tags/".count))) }
    }

    /// The tags of `references` (from `matchingReferences`) by the commit they name (tags of
    /// trees or blobs are left out, as describe leaves them out).
    func names(of references: [(name: String, target: git_oid)], in repository: GitRepository) throws -> [ObjectID: Name] {
        var result: [ObjectID: Name] = [:]
        for (refname, target) in references {
            let short = String(refname.dropFirst("refs/tags/".count))
            guard let peeled = try peel(target, in: repository) else { continue }
            let candidate = Name(display: peeled.tagName ?? short, priority: peeled.tagName == nil ? 1 : 2,
                                 taggerDate: peeled.taggerDate)
            if let existing = result[peeled.commit] {
                guard existing.priority < candidate.priority
                    || (existing.priority == 2 && candidate.priority == 2 && existing.taggerDate < candidate.taggerDate)
                else { continue }
            }
            result[peeled.commit] = candidate
        }
        return result
    }

    /// Every `refs/tags/` reference and the object it points to, sorted by name.
    private func tagReferences(_ repository: GitRepository) throws -> [(String, git_oid)] {
        var iterator: OpaquePointer?
        try GitLibrary.check(git_reference_iterator_new(&iterator, repository.handle), "listing tags")
        defer { git_reference_iterator_free(iterator) }
        var found: [(String, git_oid)] = []
        var reference: OpaquePointer?
        while git_reference_next(&reference, iterator) == 0 {
            defer { git_reference_free(reference) }
            let name = String(cString: git_reference_name(reference))
            guard name.hasPrefix("refs/tags/") else { continue }
            if let target = git_reference_target(reference) {
                found.append((name, target.pointee))
                continue
            }
            // A symbolic tag reference: follow it.
            var resolved: OpaquePointer?
            guard git_reference_resolve(&resolved, reference) == 0 else { continue }
            defer { git_reference_free(resolved) }
            if let target = git_reference_target(resolved) { found.append((name, target.pointee)) }
        }
        return found.sorted { Array($0.0.utf8).lexicographicallyPrecedes(Array($1.0.utf8)) }
    }

    /// Follows tag objects to the commit; the outermost tag's name and date when annotated.
    private func peel(_ target: git_oid, in repository: GitRepository)
        throws -> (commit: ObjectID, tagName: String?, taggerDate: Int64)? {
        var id = target
        var tagName: String?
        var taggerDate: Int64 = 0
        for _ in 0..<32 {
            var object: OpaquePointer?
            guard git_object_lookup(&object, repository.handle, &id, GIT_OBJECT_ANY) == 0 else { return nil }
            defer { git_object_free(object) }
            switch git_object_type(object) {
            case GIT_OBJECT_COMMIT:
                return (ObjectID(id), tagName, taggerDate)
            case GIT_OBJECT_TAG:
                if tagName == nil {
                    tagName = String(cString: git_tag_name(object))
                    taggerDate = git_tag_tagger(object).map { Int64($0.pointee.when.time) } ?? 0
                }
                id = git_tag_target_id(object).pointee
            default:
                return nil
            }
        }
        return nil
    }
}
