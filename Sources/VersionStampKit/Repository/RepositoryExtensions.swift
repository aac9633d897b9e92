import CGit2
#if canImport(FoundationEssentials) && os(Linux)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import EssentialsSupport

/// The repository extensions (`extensions.*` in the common dir's `config`) a repository uses
/// that the linked libgit2 does not read, found by reading them, as libgit2 does, rather than
/// from the wording of its refusal: 1.5 reads none but `noop`, 1.6 adds `objectFormat`, 1.8
/// `worktreeConfig`, 1.9 `preciousObjects`; none of them reads `partialClone`.
enum RepositoryExtensions {
    /// The first extension (as libgit2 names it: `extensions.partialclone`, its configuration
    /// lower-casing the key) of the repository at `gitDirectory` (else the one discovered from
    /// `start`, stopping at `ceilingDirectories`) that libgit2 does not read; nil when there is
    /// none, or the repository cannot be found. libgit2, like git, reads extensions only in a
    /// repository whose `core.repositoryformatversion` is 1.
    static func firstUnsupported(gitDirectory: String?, start: String, ceilingDirectories: String?) -> String? {
        GitLibrary.initialize()
        guard let found = gitDirectory ?? discover(start, ceilingDirectories: ceilingDirectories) else { return nil }
        var config: OpaquePointer?
        guard git_config_open_ondisk(&config, commonDirectory(of: found) + "/config") == 0 else { return nil }
        defer { git_config_free(config) }
        var version: Int32 = 0
        guard git_config_get_int32(&version, config, "core.repositoryformatversion") == 0, version >= 1 else {
            return nil
        }
        var iterator: OpaquePointer?
        guard git_config_iterator_glob_new(&iterator, config, "^extensions\\.") == 0 else { return nil }
        defer { git_config_iterator_free(iterator) }
        let supported = supportedByLibgit2()
        var entry: UnsafeMutablePointer<git_config_entry>?
        while git_config_next(&entry, iterator) == 0, let name = entry?.pointee.name {
            let key = String(cString: name)
            if !supported.contains(key.dropFirst("extensions.".count).lowercased()) { return key }
        }
        return nil
    }

    /// The extensions the linked libgit2 reads (`GIT_OPT_GET_EXTENSIONS`), lower-cased; one
    /// listed as `!name` is turned off.
    static func supportedByLibgit2() -> Set<String> {
        GitLibrary.initialize()
        var list = git_strarray()
        guard shipyard_git_get_extensions(&list) == 0 else { return [] }
        defer { git_strarray_dispose(&list) }
        let names = (0..<list.count).compactMap { list.strings[$0].map { String(cString: $0).lowercased() } }
        return Set(names.filter { !$0.hasPrefix("!") })
    }

    /// The git dir libgit2 finds from `start` (it checks no extension while looking).
    private static func discover(_ start: String, ceilingDirectories: String?) -> String? {
        var buffer = git_buf()
        defer { git_buf_dispose(&buffer) }
        guard git_repository_discover(&buffer, start, 0, ceilingDirectories) == 0, let path = buffer.ptr else {
            return nil
        }
        return String(cString: path)
    }

    /// The common dir of `gitDirectory`: the one its `commondir` file names (a linked
    /// worktree's), else itself.
    private static func commonDirectory(of gitDirectory: String) -> String {
        let base = GitRepository.trimmed(gitDirectory)
        guard let text = try? String(contentsOfFile: base + "/commondir", encoding: .utf8) else { return base }
        let named = text.trimmingNewlines()
        return named.isEmpty ? base : RepositoryEnvironment.absolute(named, base: base)
    }
}
