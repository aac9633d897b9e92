import ArgumentParser
import CommandLineDiagnostics
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
import VersionStampKit

extension VersionStampCommand {
    /// `versionstamp stamp`: stamps the version into plist files and writes the generated files.
    struct Stamp: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "stamp",
            abstract: "Stamp the build version into plist files (edited in place) and generated files.",
            discussion: """
                MODES
                Placeholder mode (--placeholder TOKEN, default r0000): every string
                value containing TOKEN has it replaced by the version (default
                format r{count}{dirty}).
                Key mode (--key KEYPATH, repeatable): sets the string at each
                PlistBuddy-style path (CFBundleVersion, Parent:Child:0; '\\:' is a
                literal colon) to the version (default format {count}). A missing
                key is an error: keys are never created.
                --set KEYPATH=FORMAT (repeatable) is key mode with the key's own
                format, so one run sets both versions:
                  --set CFBundleShortVersionString={version} --set CFBundleVersion={count}
                With none of these, a file containing r0000 gets placeholder mode,
                any other file key mode on CFBundleVersion; a file with neither is
                an error. --placeholder cannot be combined with --key or --set.
                A value that is wholly an Xcode build-setting reference
                ($(CURRENT_PROJECT_VERSION), ${MARKETING_VERSION}) is not replaced:
                that is an error naming the setting; write the setting with
                --xcconfig instead, or pass --force to overwrite the reference.

                FILES
                XML plists are edited in place: only the bytes of the changed
                strings change (comments, DOCTYPE, indentation, line endings, BOM
                stay). Binary plists stay binary. A file whose content would not
                change is not written; writes are atomic and keep the file's
                permissions. If any file fails, no file is written.
                CFBundleVersion and CFBundleShortVersionString (root keys) must
                follow the App Store rule: one to three period-separated
                non-negative integers, at most 18 characters.
                Entities are refused, never expanded: no other file and no network
                is read.
                With no PLIST and no generated file, Xcode's
                $BUILT_PRODUCTS_DIR/$INFOPLIST_PATH is stamped.
                --output FILE writes the stamped PLIST to FILE (atomically, only
                when its content changes) and leaves PLIST untouched: the way to
                stamp the built copy of a plist kept in the repository, whose
                placeholder must stay for the next build.

                GENERATED FILES
                --swift FILE writes `public enum BuildVersion` with the constants
                hasRevision, version, count, sha, short, describe, tag, distance,
                branch, dirty, date (UTC YYYYMMDD), timestamp, release and
                prerelease ({version} and {prerelease}), none of them optional;
                --json FILE the same fields (but hasRevision) as a JSON object;
                --xcconfig FILE the settings SHIPYARD_BUILD_VERSION,
                SHIPYARD_BUILD_COUNT, ... (dirty as YES/NO), and the settings
                Xcode's generated Info.plist reads: CURRENT_PROJECT_VERSION (the
                build number, {count}) and MARKETING_VERSION ({version}, when a
                tag with a version number is reachable). version is --format
                rendered ({count} without --format). With VERSIONSTAMP_VERSION set,
                version is that value and the other fields are unknown:
                hasRevision false and 0, "" or false in Swift, null in JSON, empty
                in xcconfig. Each file is written only when its content changes.
                With these, PLIST is optional (and the Xcode plist is then not
                stamped implicitly).

                RELEASE NUMBERING
                {count} is the build number: the commit count (--first-parent,
                --path narrow it), or the integer in --build-number-env's variable
                when that is set, plus --offset. {version} is the nearest tag
                matching --tag-pattern with its prefix and suffix removed
                (v2.0.0-beta.1 gives 2.0.0, {prerelease} beta.1). A --path that
                names nothing in HEAD's tree is an error.

                CACHE
                --cache-dir DIR keeps the history cache in DIR instead of the
                repository's git directory (a sandboxed build may write only its
                own directories).

                EXIT STATUS
                0 success, 1 error, 64 usage error.
                With --check: 0 nothing would change, 1 a file would change,
                2 error.
                """
        )

        @Argument(help: "The plist files to stamp (XML or binary).")
        var plists: [String] = []

        @Option(
            help: ArgumentHelp(
                "Write the stamped PLIST to this file instead, leaving PLIST untouched (one PLIST).", valueName: "file")
        )
        var output: String?

        @OptionGroup
        var repository: RepositoryOptions

        @Option(help: ArgumentHelp("The version format (\(VersionToken.list)).", valueName: "fmt"))
        var format: String?

        @Option(
            name: .customLong("key"),
            help: ArgumentHelp("Set the string at this key path (repeatable).", valueName: "keypath"))
        var keys: [String] = []

        @Option(
            name: .customLong("set"),
            help: ArgumentHelp(
                "Set the string at KEYPATH to FORMAT (repeatable): CFBundleVersion={count}.",
                valueName: "keypath=format"))
        var assignments: [String] = []

        @Flag(help: "Overwrite values that are Xcode build-setting references ($(NAME)).")
        var force = false

        @Option(
            help: ArgumentHelp("Replace this token in every string containing it (default r0000).", valueName: "token"))
        var placeholder: String?

        @Option(help: ArgumentHelp("What {dirty} becomes when tracked files are modified.", valueName: "marker"))
        var dirtyMarker: String = "M"

        @Flag(help: "Change nothing; exit 0 when nothing would change, 1 when a file would, 2 on error.")
        var check = false

        @Flag(
            help:
                "Print the changes (file, key path, old → new) without writing, then a line saying nothing was written."
        )
        var dryRun = false

        @Flag(name: [.short, .long], help: "Print errors only.")
        var quiet = false

        @Option(help: ArgumentHelp("Write the version as Swift constants to this file.", valueName: "file"))
        var swift: String?

        @Option(help: ArgumentHelp("Write the version as a JSON object to this file.", valueName: "file"))
        var json: String?

        @Option(
            help: ArgumentHelp(
                "Write the version as xcconfig settings to this file (with CURRENT_PROJECT_VERSION and MARKETING_VERSION).",
                valueName: "file"))
        var xcconfig: String?

        @OptionGroup(title: "Release numbering")
        var numbering: ReleaseNumberingOptions

        @OptionGroup var configurationFile: ConfigurationFileOption

        func run() throws {
            let environment = ProcessInfo.processInfo.environment
            var generated: [GeneratedVersionFile: String] = [:]
            generated[.swift] = swift
            generated[.json] = json
            generated[.xcconfig] = xcconfig
            // Usage errors (exit 64) come first, before the repository is read.
            let mode = try StampOptions.mode(keys: keys, assignments: assignments, placeholder: placeholder)
            let files = try StampOptions.resolvePlists(
                plists, generatingFiles: !generated.isEmpty, environment: environment)
            let failureStatus: Int32 = check ? 2 : 1
            let context: VersionContext
            let configuration: VersionStampConfiguration
            do {
                configuration = try configurationFile.load()
                context = try VersionContext.load(
                    repository: repository.repo, environment: environment,
                    query: numbering.query(configuredBy: configuration),
                    buildNumber: numbering.buildNumber(configuredBy: configuration),
                    caching: repository.caching)
            } catch {
                throw CommandFailure(errors: [error], status: failureStatus)
            }
            let options = StampOptions(
                plists: files, output: output, format: format ?? configuration.format, mode: mode,
                dirtyMarker: dirtyMarker,
                generatedFiles: generated, force: force)
            let plan = StampPlan(options: options, context: context)
            guard plan.errors.isEmpty else {
                throw CommandFailure(errors: plan.errors, status: failureStatus)
            }
            if check || dryRun {
                if !quiet || dryRun {
                    for line in plan.reportLines(written: false) { print(line) }
                }
                if dryRun { print(plan.dryRunSummary) }
                if check { throw ExitCode(plan.hasChanges ? 1 : 0) }
                return
            }
            do {
                try plan.write()
            } catch {
                throw CommandFailure(errors: [error], status: failureStatus)
            }
            if !quiet {
                for line in plan.reportLines(written: true) { print(line) }
            }
        }
    }
}
