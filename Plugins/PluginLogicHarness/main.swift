// Not a plugin target: a command-line harness that .ci/run-examples compiles together with the
// build-tool plugins' helper files (against the toolchain's PackagePlugin library) to check
// their logic against oracles (dbgen's --depfile, git rev-parse). Plugin targets cannot be
// test dependencies, so this is how that logic gets tested.
//
//   plugin-logic script-inputs SCRIPT       the files ScriptInputs finds, one per line
//   plugin-logic repository-inputs DIR      the files RepositoryInputs finds, or "none"
import Foundation
import PackagePlugin

let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    print("usage: plugin-logic script-inputs SCRIPT | repository-inputs DIR")
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
default:
    print("unknown mode \(arguments[1])")
    exit(64)
}
