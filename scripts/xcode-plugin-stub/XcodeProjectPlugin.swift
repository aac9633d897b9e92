// An interface stub of Apple's XcodeProjectPlugin module, written from Apple's documentation
// of that module (it ships only with Xcode). scripts/check-xcode-plugins.sh compiles the
// plugins' `#if canImport(XcodeProjectPlugin)` code against it on Linux, so a misspelt
// member or a wrong signature there fails CI instead of shipping unseen.
//
// Only the declarations are real; nothing here is meant to run.
import Foundation
import PackagePlugin

/// The context Xcode gives a plugin applied to an Xcode project.
public struct XcodePluginContext {
    /// The project the plugin is applied to.
    public var xcodeProject: XcodeProject { fatalError("stub") }
    /// A directory the plugin may write to.
    public var pluginWorkDirectory: Path { fatalError("stub") }
    /// A directory the plugin may write to, as a URL.
    public var pluginWorkDirectoryURL: URL { fatalError("stub") }
    /// A command-line tool the plugin may run, by name.
    public func tool(named name: String) throws -> PluginContext.Tool { fatalError("stub") }
}

/// An Xcode project.
public struct XcodeProject {
    /// The project's identifier.
    public var id: String { fatalError("stub") }
    /// The project's name.
    public var displayName: String { fatalError("stub") }
    /// The directory containing the project.
    public var directory: Path { fatalError("stub") }
    /// The directory containing the project, as a URL.
    public var directoryURL: URL { fatalError("stub") }
    /// Every file in the project.
    public var filePaths: [Path] { fatalError("stub") }
    /// The project's targets.
    public var targets: [XcodeTarget] { fatalError("stub") }
}

/// A target of an Xcode project.
public struct XcodeTarget {
    /// The target's identifier.
    public var id: String { fatalError("stub") }
    /// The target's name.
    public var displayName: String { fatalError("stub") }
    /// The product the target builds, if any.
    public var product: XcodeProduct? { fatalError("stub") }
    /// The target's input files (sources and resources).
    public var inputFiles: FileList { fatalError("stub") }
}

/// The product of an Xcode target.
public struct XcodeProduct {
    /// The product's identifier.
    public var id: String { fatalError("stub") }
    /// The product's name.
    public var name: String { fatalError("stub") }
}

/// A command plugin that Xcode can run on a project.
public protocol XcodeCommandPlugin {
    /// Runs the command on the project in `context`.
    func performCommand(context: XcodePluginContext, arguments: [String]) throws
}

/// A build-tool plugin that Xcode can apply to a project's targets.
public protocol XcodeBuildToolPlugin {
    /// The commands to run when building `target`.
    func createBuildCommands(context: XcodePluginContext, target: XcodeTarget) throws -> [Command]
}
