// Not a plugin target: a command-line harness that .ci/run-examples compiles together with the
// build-tool plugins' helper files (against the toolchain's PackagePlugin library) to check
// their logic against oracles (find(1), git rev-parse). Plugin targets cannot be test
// dependencies, so this is how that logic gets tested.
//
//   plugin-logic watched-files DIR          the files WatchedFiles declares, one per line
//   plugin-logic misnamed FILE...           each likely misnamed script and its suggested name
//   plugin-logic leftovers WORKDIR KEEP...  the .sqlite files LeftoverOutputs removes
//   plugin-logic repository-inputs DIR      the files RepositoryInputs finds, or "none"
//   plugin-logic duplicates SCRIPT...       DuplicateResourceName's message for the scripts'
//                                           databases, or "none"
import Foundation
import PackagePlugin

let arguments = CommandLine.arguments
guard arguments.count >= 3 else {
    print(
        "usage: plugin-logic watched-files DIR | misnamed FILE... | leftovers WORKDIR KEEP... | repository-inputs DIR"
            + " | duplicates SCRIPT...")
    exit(64)
}
switch arguments[1] {
case "watched-files":
    WatchedFiles.files(under: Path(arguments[2])).forEach { print($0.string) }
case "misnamed":
    for (file, suggestion) in ScriptNaming.likelyMisnamed(arguments.dropFirst(2).map { Path($0) }) {
        print("\(file.lastComponent) -> \(suggestion)")
    }
case "leftovers":
    let work = Path(arguments[2])
    LeftoverOutputs(workDirectory: work, pathExtension: "sqlite")
        .removeAll(except: arguments.dropFirst(3).map { work.appending($0) })
        .forEach { print($0) }
case "repository-inputs":
    if let inputs = RepositoryInputs(startingAt: Path(arguments[2])) {
        inputs.files.forEach { print($0.string) }
    } else {
        print("none")
    }
case "duplicates":
    do {
        try DuplicateResourceName.check(
            arguments.dropFirst(2).map { Path($0) }, verb: "build",
            resourceName: ScriptNaming.databaseName(of:))
        print("none")
    } catch {
        print(error)
    }
default:
    print("unknown mode \(arguments[1])")
    exit(64)
}
