import ArgumentParser
import DBGenKit

/// The `build` options a build system passes: the options file it keeps beside the script
/// (read when the build runs), and the directories it watches.
package struct BuildSystemOptions: ParsableArguments {
    package init() {}

    @Option(
        name: .customLong("config"),
        help: ArgumentHelp(
            "Read build options from this JSON file when the build runs (dbgen.json: {\"strict\": true}).",
            valueName: "file"))
    var configurationFile: String?

    @Option(
        name: .customLong("input-root"),
        help: ArgumentHelp(
            "Fail when the script reads a file outside this directory (repeatable): the directories a build system watches, so it can never skip a build it should run.",
            valueName: "dir"))
    var inputRoots: [String] = []

    /// `options` with these settings.
    package func applied(to options: BuildOptions) -> BuildOptions {
        var options = options
        options.configurationFile = configurationFile
        options.inputRoots = inputRoots
        return options
    }
}
