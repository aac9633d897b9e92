import FileSystemKit
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

/// Which history the revision facts are read over: the release-numbering options that
/// change what `{count}`, `{tag}`, `{distance}`, `{version}` and `{describe}` mean.
///
/// The default query reads the whole history, as `git rev-list --count HEAD` and
/// `git describe --tags` do.
public struct RevisionQuery: Hashable, Sendable {
    /// Only tags whose name matches this glob count (`git describe --match GLOB`); nil: all tags.
    public var tagPattern: String?
    /// Follow first parents only (`git rev-list --first-parent`).
    public var firstParent: Bool
    /// Count only commits that touch one of these paths, relative to the repository root
    /// (`git rev-list HEAD -- PATH...`, with git's history simplification). Empty: all commits.
    public var paths: [String]

    /// Creates a query; the defaults read the whole history.
    public init(tagPattern: String? = nil, firstParent: Bool = false, paths: [String] = []) {
        self.tagPattern = tagPattern
        self.firstParent = firstParent
        self.paths = paths
    }
}

extension RevisionQuery {
    /// The query with each path made relative to the work tree's root (`git -C START rev-list
    /// HEAD -- PATH` reads PATH relative to START): a relative path is taken from `start` (the
    /// current directory when nil), an absolute one as is; `.` and `..` are resolved, and the
    /// root itself becomes `.`. Throws when a path lies outside the work tree or the repository
    /// is bare, and for a path git would read as a pattern (`*`, `?`, `[`) or pathspec magic (a
    /// leading `:`): refused rather than counted differently from git.
    func relativeToRoot(of repository: GitRepository, from start: String?) throws -> RevisionQuery {
        guard !paths.isEmpty else { return self }
        guard let workDirectory = repository.workDirectory else {
            throw VersionStampError(
                .pathOutsideRepository, path: repository.displayPath,
                message: "--path needs a work tree, and this repository is bare")
        }
        let root = Self.canonical(workDirectory)
        let base = Self.canonical(start ?? FileManager.default.currentDirectoryPath)
        var resolved = self
        resolved.paths = try paths.map { path in
            let relative = try Self.relative(path, root: root, base: base)
            if relative.contains(where: { "*?[".contains($0) }) || relative.hasPrefix(":") {
                throw VersionStampError(
                    .usage, path: path,
                    message: "the path contains a pattern character (* ? [) or starts with ':', "
                        + "which git would read as a pathspec pattern; --path takes a directory or file")
            }
            return relative
        }
        return resolved
    }

    /// `path` relative to `root` (both canonical), `.` for the root itself.
    private static func relative(_ path: String, root: String, base: String) throws -> String {
        let absolute = LexicalPath.normalized(path.hasPrefix("/") ? path : base + "/" + path)
        if canonical(absolute) == root { return "." }
        // The last component is kept as written: a symbolic link in the work tree is a path
        // of its own to git, wherever it points.
        let parent = canonicalExistingPrefix(PathText.deletingLastComponent(absolute))
        let full = (parent == "/" ? "" : parent) + "/" + PathText.lastComponent(absolute)
        guard full.hasPrefix(root == "/" ? "/" : root + "/") else {
            throw VersionStampError(
                .pathOutsideRepository, path: path,
                message: "the path is outside the repository at \(root); --path must name a directory or file inside it"
            )
        }
        return String(full.dropFirst(root == "/" ? 1 : root.count + 1))
    }

    /// `path` with symbolic links resolved (as libgit2 reports the work tree), or as given.
    private static func canonical(_ path: String) -> String {
        guard let real = realpath(path, nil) else { return LexicalPath.normalized(path) }
        defer { free(real) }
        return String(cString: real)
    }

    /// An absolute path whose existing leading part has its symbolic links resolved; the rest
    /// (a directory that no longer exists still names history) is kept as written.
    private static func canonicalExistingPrefix(_ path: String) -> String {
        var existing = path
        var rest: [String] = []
        while existing != "/", !FileManager.default.fileExists(atPath: existing) {
            rest.insert(PathText.lastComponent(existing), at: 0)
            existing = PathText.deletingLastComponent(existing)
        }
        let head = canonical(existing)
        return rest.isEmpty ? head : (head == "/" ? "" : head) + "/" + rest.joined(separator: "/")
    }
}
