import Foundation
import PackagePlugin

/// How the plugin recognises a schema script (`NAME.dbgen.txt`), and what it suggests when a
/// target has none: a target that applies the plugin but builds nothing is a mistake that
/// would otherwise show only when the app fails to find its database.
enum ScriptNaming {
    /// The file-name suffix that marks a schema script to build.
    static let suffix = ".dbgen.txt"

    /// True for `NAME.dbgen.txt` with a non-empty NAME.
    static func isScript(_ file: Path) -> Bool {
        file.lastComponent.hasSuffix(suffix) && file.lastComponent != suffix
    }

    /// The database a script builds: `NAME.sqlite`.
    static func databaseName(of script: Path) -> String {
        String(script.lastComponent.dropLast(suffix.count)) + ".sqlite"
    }

    /// Files that look like a misnamed script (`food.dbgen`, `food.DBGen.txt`, `food.dbgen.sql`,
    /// `food-dbgen.txt`), each with the name it probably should have.
    static func likelyMisnamed(_ files: [Path]) -> [(file: Path, suggestion: String)] {
        files.compactMap { file in
            let name = file.lastComponent
            guard !isScript(file), let range = name.range(of: "dbgen", options: .caseInsensitive) else { return nil }
            let stem = name[..<range.lowerBound].trimmingCharacters(in: CharacterSet(charactersIn: ".-_ "))
            guard !stem.isEmpty else { return nil }
            return (file, stem + suffix)
        }
    }

    /// The warning for a target with no script.
    static func noScriptWarning(target: String, files: [Path]) -> (message: String, file: Path?) {
        let prefix =
            "target '\(target)' applies DBGenBuildToolPlugin but holds no schema script named NAME\(suffix): no database is built"
        guard let likely = likelyMisnamed(files).first else {
            return (prefix + "; name the script NAME\(suffix) to build NAME.sqlite", nil)
        }
        return (prefix + "; rename '\(likely.file.lastComponent)' to '\(likely.suggestion)'?", likely.file)
    }
}
