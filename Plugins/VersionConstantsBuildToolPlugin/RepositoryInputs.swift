import Foundation
import PackagePlugin

/// The files of the git repository around a directory whose change means HEAD or the index
/// moved: `HEAD` and `index` of the (worktree's) git directory, the loose ref HEAD points to,
/// and `packed-refs`, the last two from the common directory that linked worktrees share.
///
/// Found by walking up from the starting directory to the first `.git`, which is a directory
/// in an ordinary clone and a file (`gitdir: PATH`) in a linked worktree or submodule.
struct RepositoryInputs {
    let files: [Path]

    /// Nil when no repository contains `directory`.
    init?(startingAt directory: Path) {
        guard let gitDirectory = Self.gitDirectory(above: directory) else { return nil }
        let commonDirectory = Self.commonDirectory(of: gitDirectory)
        var files = [gitDirectory.appending("HEAD"), gitDirectory.appending("index")]
        if let head = try? String(contentsOfFile: gitDirectory.appending("HEAD").string, encoding: .utf8),
            head.hasPrefix("ref:")
        {
            let ref = head.dropFirst("ref:".count).trimmingCharacters(in: .whitespacesAndNewlines)
            files.append(commonDirectory.appending(ref))
        }
        files.append(commonDirectory.appending("packed-refs"))
        self.files = files.filter { FileManager.default.fileExists(atPath: $0.string) }
    }

    /// The git directory for the nearest `.git` at or above `directory`.
    private static func gitDirectory(above directory: Path) -> Path? {
        var current = directory
        while true {
            let dotGit = current.appending(".git")
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: dotGit.string, isDirectory: &isDirectory) {
                if isDirectory.boolValue { return dotGit }
                if let pointer = try? String(contentsOfFile: dotGit.string, encoding: .utf8),
                    pointer.hasPrefix("gitdir:")
                {
                    return resolve(pointer.dropFirst("gitdir:".count), against: current)
                }
            }
            let parent = current.removingLastComponent()
            if parent == current || parent.string.isEmpty { return nil }
            current = parent
        }
    }

    /// A linked worktree's git directory names the shared one in its `commondir` file.
    private static func commonDirectory(of gitDirectory: Path) -> Path {
        guard let common = try? String(contentsOfFile: gitDirectory.appending("commondir").string, encoding: .utf8)
        else { return gitDirectory }
        return resolve(Substring(common), against: gitDirectory)
    }

    private static func resolve(_ text: Substring, against base: Path) -> Path {
        let path = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let absolute = path.hasPrefix("/") ? path : base.appending(path).string
        return Path(URL(fileURLWithPath: absolute).standardizedFileURL.path)
    }
}
