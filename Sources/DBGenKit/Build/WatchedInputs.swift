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

/// The check behind ``BuildOptions/inputRoots``: a build run by a build system reads only files
/// the build system watches.
///
/// SwiftPM runs a build-tool plugin's command again only when one of its declared input files
/// changes, and it decides those inputs when it plans the build, not when the script changes.
/// So the plugin declares every file under the script's directory, and dbgen refuses a script
/// that reads anything else: the alternative is a database silently built from an old file.
enum WatchedInputs {
    /// Throws ``DBGenError/Code/unwatchedInput`` for the first input outside every root,
    /// located where the script first read it.
    ///
    /// Paths are compared as dbgen resolves them (absolute, `.` and `..` removed, symbolic
    /// links not followed), as the build system names the files it watches.
    static func check(_ inputs: [InputFile], readAt locations: [String: SourceLocation], roots: [String]) throws {
        guard !roots.isEmpty else { return }
        let cwd = PathResolution.currentDirectory
        let directories = roots.map { PathResolution.absolute($0, relativeTo: cwd) }
        for input in inputs where !directories.contains(where: { contains($0, input.path) }) {
            let watched = roots.map { "\"\($0)\"" }.joined(separator: ", ")
            throw DBGenError(
                .unwatchedInput,
                "\"\(input.displayPath)\" is outside the directories the build watches (\(watched)); "
                    + "a change to it would not rebuild the database: move it under \(roots.count == 1 ? "that directory" : "one of them")",
                at: locations[input.path])
        }
    }

    /// True when `path` is `directory` or lies below it.
    private static func contains(_ directory: String, _ path: String) -> Bool {
        let prefix = directory.hasSuffix("/") ? directory : directory + "/"
        return path == directory || path.hasPrefix(prefix)
    }
}
