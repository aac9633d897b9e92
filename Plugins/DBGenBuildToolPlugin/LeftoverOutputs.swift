import Foundation
import PackagePlugin

/// Outputs a build-tool plugin wrote in an earlier plan whose source is gone (renamed or
/// removed): removed from the plugin's work directory, and reported, because SwiftPM's native
/// build system never removes a resource it copied into a target's bundle. Its copy command
/// (`CopyCommand` in SwiftPM's `LLBuildCommands.swift`) replaces only its own destination, and
/// the bundle holds one copy per resource of the *current* plan (`createResourcesBundle` in
/// `LLBuildManifestBuilder+Resources.swift`), so a renamed script's old database would ship
/// unannounced. (Xcode and `swift build --build-system swiftbuild` remove stale bundle files.)
///
/// This file is shared by the build-tool plugins (a symbolic link in each plugin's directory).
struct LeftoverOutputs {
    /// The plugin's work directory, where its outputs are written.
    let workDirectory: Path
    /// The extension of the outputs (`sqlite`, `plist`).
    let pathExtension: String

    /// Removes the files of `pathExtension` directly in the work directory that are not among
    /// `current`, and returns their names.
    func removeAll(except current: [Path]) -> [String] {
        let keep = Set(current.map(\.lastComponent))
        let names = (try? FileManager.default.contentsOfDirectory(atPath: workDirectory.string)) ?? []
        return names.sorted().filter { name in
            guard (name as NSString).pathExtension == pathExtension, !keep.contains(name) else { return false }
            try? FileManager.default.removeItem(atPath: workDirectory.appending(name).string)
            return true
        }
    }

    /// The warning for a leftover output of `target`, naming the copies SwiftPM left in the
    /// target's resource bundles when they can be found.
    func warning(for name: String, target: String, source: String) -> String {
        let copies = bundleCopies(of: name, target: target)
        let remedy = copies.isEmpty
            ? "a bundle built by `swift build` keeps its copy until `swift package clean`"
            : "`swift build` leaves its copy in the bundle: remove \(copies.joined(separator: " and ")) or run `swift package clean`"
        return "'\(name)' was built from \(source), which is no longer in target '\(target)' (renamed or removed); \(remedy)"
    }

    /// Copies of `name` in the target's resource bundles under SwiftPM's build directory:
    /// `.build/TRIPLE/CONFIGURATION/PACKAGE_TARGET.resources` (`.bundle` on Apple platforms),
    /// the work directory being `.build/plugins/outputs/PACKAGE/TARGET/DESTINATION/PLUGIN`.
    private func bundleCopies(of name: String, target: String) -> [String] {
        var scratch = workDirectory
        for _ in 0..<6 { scratch = scratch.removingLastComponent() }
        guard FileManager.default.fileExists(atPath: scratch.appending("plugins", "outputs").string) else { return [] }
        var copies: [String] = []
        for triple in directories(in: scratch) {
            for configuration in directories(in: triple) {
                for bundle in directories(in: configuration)
                where bundle.lastComponent.hasSuffix("_\(target).resources") || bundle.lastComponent.hasSuffix("_\(target).bundle") {
                    for candidate in [bundle.appending(name), bundle.appending("Contents", "Resources", name)]
                    where FileManager.default.fileExists(atPath: candidate.string) {
                        copies.append(candidate.string)
                    }
                }
            }
        }
        return copies
    }

    /// The subdirectories of `directory`, symbolic links excluded (`.build/debug` is one).
    private func directories(in directory: Path) -> [Path] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.string)) ?? []
        return names.sorted().map { directory.appending($0) }.filter { path in
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: path.string) else { return false }
            return attributes[.type] as? FileAttributeType == .typeDirectory
        }
    }
}
