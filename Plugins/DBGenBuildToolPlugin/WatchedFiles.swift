import Foundation
import PackagePlugin

/// Every file under a directory: what a build command declares as its inputs when the tool it
/// runs may read any of them, decided without reading the files.
///
/// SwiftPM plans a build (and asks the plugin for its commands) again only when a file is added
/// to or removed from a target's directory tree, or `Package.swift` or the environment changes;
/// between plans it runs a command again only when a declared input changes. So a plugin that
/// guessed the inputs by reading the script at planning time missed every file the script
/// started to read later. Declaring the whole directory cannot go stale: adding a file
/// re-plans, editing one re-runs, and `dbgen --input-root DIR` fails a script that reads
/// anything outside it.
///
/// Symbolic links to directories are followed (each real directory once), so their files are
/// watched too; a file added inside such a linked directory is seen at the next plan.
enum WatchedFiles {
    /// The regular files under `directory` (at any depth, hidden ones included), sorted.
    static func files(under directory: Path) -> [Path] {
        var found: [Path] = []
        var visited: Set<String> = []
        collect(directory.string, into: &found, visited: &visited)
        return found.sorted { $0.string < $1.string }
    }

    private static func collect(_ directory: String, into found: inout [Path], visited: inout Set<String>) {
        guard visited.insert(URL(fileURLWithPath: directory).resolvingSymlinksInPath().path).inserted,
            let names = try? FileManager.default.contentsOfDirectory(atPath: directory)
        else { return }
        for name in names {
            let path = (directory as NSString).appendingPathComponent(name)
            var isDirectory: ObjCBool = false
            // A dangling link is neither a file nor a directory: skipped.
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { continue }
            if isDirectory.boolValue {
                collect(path, into: &found, visited: &visited)
            } else {
                found.append(Path(path))
            }
        }
    }
}
