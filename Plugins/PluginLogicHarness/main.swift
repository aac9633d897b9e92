// Not a plugin target: a command-line harness that .ci/run-examples compiles together with the
// build-tool plugins' helper files (against the toolchain's PackagePlugin library) to check
// their logic against oracles (dbgen's --depfile, git rev-parse). Plugin targets cannot be
// test dependencies, so this is how that logic gets tested.
//
//   plugin-logic script-inputs SCRIPT       the files ScriptInputs finds, one per line
//   plugin-logic repository-inputs DIR      the files RepositoryInputs finds, or "none"
//   plugin-logic version-arguments DIR...   the versionstamp options VersionStampConfiguration
//                                           reads from the first versionstamp.json, one a line
import Foundation
import PackagePlugin

let arguments = CommandLine.arguments
guard arguments.count >= 3 else {
    print("usage: plugin-logic script-inputs SCRIPT | repository-inputs DIR | version-arguments DIR...")
    exit(64)
}
switch arguments[1] {
case "script-inputs":
    ScriptInputs.files(readBy: Path(arguments[2])).forEach { print($0.string) }
case "repository-inputs":
    if let inputs = RepositoryInputs(startingAt: Path(arguments[2])) {
        inputs.files.forEach { print($0.string) }
    } else {
        print("none")
    }
case "version-arguments":
    do {
        let configuration = try VersionStampConfiguration.searching(arguments.dropFirst(2).map { Path($0) })
        configuration.arguments.forEach { print($0) }
    } catch {
        print("\(error)")
        exit(1)
    }
default:
    print("unknown mode \(arguments[1])")
    exit(64)
}
