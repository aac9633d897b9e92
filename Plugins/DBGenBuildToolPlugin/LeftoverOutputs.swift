import Foundation
import PackagePlugin

/// Outputs a build-tool plugin wrote in an earlier plan whose source is gone (renamed or
/// removed): removed from the plugin's work directory and from the target's resource bundles,
/// and reported. SwiftPM's native build system never removes a resource it copied into a
/// target's bundle: its copy command (`CopyCommand` in SwiftPM's `LLBuildCommands.swift`)
/// replaces only its own destination, and the bundle holds one copy per resource of the
/// *current* plan (`createResourcesBundle` in `LLBuildManifestBuilder+Resources.swift`), so a
/// renamed script's old database would otherwise ship unannounced. The plugin runs when SwiftPM
/// plans the build, before the copies are made, so removing the stale copy then leaves the
/// bundle exactly as the new plan describes it. Where the plugin may not write there (SwiftPM's
/// sandbox on macOS lets a plugin write only its work directory), the warning names the copy to
/// remove. (Xcode and `swift build --build-system swiftbuild` remove stale bundle files.)
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

    /// Removes the copies of the leftover `name` from `target`'s resource bundles and returns
    /// the warning that reports it: what was removed, or the copies that could not be.
    func removeBundleCopies(of name: String, target: String, source: String) -> String {
        var removed: [String] = []
        var kept: [String] = []
        for copy in bundleCopies(of: name, target: target) {
            if (try? FileManager.default.removeItem(atPath: copy)) != nil {
                removed.append(copy)
            } else {
                kept.append(copy)
            }
        }
        let gone = "'\(name)' was built from \(source), which is no longer in target '\(target)' (renamed or removed)"
        if !kept.isEmpty {
            return gone + "; `swift build` leaves its copy in the bundle and the plugin may not remove it: "
                + "remove \(kept.joined(separator: " and ")) or run `swift package clean`"
        }
        if !removed.isEmpty { return gone + "; removed it from the bundle (\(removed.joined(separator: " and ")))" }
        return gone + "; removed it from the plugin's outputs"
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
                where bundle.lastComponent.hasSuffix("_\(target).resources")
                    || bundle.lastComponent.hasSuffix("_\(target).bundle")
                {
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
