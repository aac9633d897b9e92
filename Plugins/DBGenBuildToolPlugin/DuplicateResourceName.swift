import PackagePlugin

/// Two files of one target that would produce resources of the same name (a resource bundle
/// holds one file per name): the build-tool plugins refuse the target and name both. Shared by
/// DBGenBuildToolPlugin (scripts building databases) and VersionConstantsBuildToolPlugin
/// (templates giving stamped plists); the latter links this file.
struct DuplicateResourceName: Error, CustomStringConvertible {
    let name: String
    let sources: [Path]
    /// What each source does to the resource, as the message says it: "build", "give".
    let verb: String

    var description: String {
        "\(sources.map(\.string).joined(separator: " and ")) would both \(verb) \(name); rename one"
    }

    /// Throws for the first source, in order, whose `resourceName` an earlier one already has.
    static func check(_ sources: [Path], verb: String, resourceName: (Path) -> String) throws {
        var seen: [String: Path] = [:]
        for source in sources {
            let name = resourceName(source)
            if let other = seen.updateValue(source, forKey: name) {
                throw DuplicateResourceName(name: name, sources: [other, source], verb: verb)
            }
        }
    }
}
