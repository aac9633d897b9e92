import ArgumentParser
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
import LayeredDatabase
import EssentialsSupport

extension DBGenSubcommands {
    /// `dbgen update`: install newer shipped data into an app-owned updates directory.
    package struct Update: ParsableCommand {
        package static let configuration = CommandConfiguration(
            commandName: "update",
            abstract: "Install a newer shipped database (a whole file or a diff patch) into an updates directory.",
            discussion: """
                With --database, installs that file; with --patch, copies the database in effect \
                (the newer of --bundled and the installed update) and applies the SQL `dbgen diff` \
                printed, in one transaction. A patch may change only its copy: ATTACH, VACUUM INTO, \
                load_extension and pragmas other than user_version/application_id are refused. \
                Before installing: --sha256 of the given file, a patch's header naming the database \
                in effect as its base, PRAGMA quick_check, and a user_version greater than that of \
                the database in effect. Otherwise exit 1 and DIR is as it was. Installing what is \
                already in effect (a re-download) exits 0, changes nothing and says so. \
                The install is atomic (a temporary file, synced to disk, then renamed) and prints the installed \
                user_version. The bundled file is only read; no user database is involved. \
                DIR is created when missing (the app owns it), but not its parent: as `dbgen build` \
                writes only into an existing directory, a missing parent is an error.

                Examples:
                  dbgen update --bundled App/food.sqlite --updates ~/Library/food-updates \\
                    --database food-v5.sqlite
                  dbgen update --bundled App/food.sqlite --updates ~/Library/food-updates \\
                    --patch v4-v5.sql --sha256 "$(shasum -a 256 v4-v5.sql | cut -d' ' -f1)"
                """
        )

        package init() {}

        @Option(name: .long, help: ArgumentHelp("The database shipped in the app (only read).", valueName: "file"))
        var bundled: String

        @Option(
            name: .long,
            help: ArgumentHelp(
                "The app-owned directory updates are installed into (created if missing; its parent must exist).",
                valueName: "dir"))
        var updates: String

        @Option(name: .long, help: ArgumentHelp("A whole newer database to install.", valueName: "file"))
        var database: String?

        @Option(
            name: .long,
            help: ArgumentHelp("A patch printed by `dbgen diff` to apply to the database in effect.", valueName: "file")
        )
        var patch: String?

        @Option(
            name: .long, help: ArgumentHelp("The expected SHA-256 of --database or --patch (hex).", valueName: "hex"))
        var sha256: String?

        package func validate() throws {
            guard (database == nil) != (patch == nil) else {
                throw ValidationError("give exactly one of --database and --patch")
            }
            if let sha256, sha256.count != 64 || !sha256.allSatisfy(\.isHexDigit) {
                throw ValidationError("--sha256 must be 64 hexadecimal digits")
            }
        }

        package func run() throws {
            // One rule with `dbgen build`: dbgen creates what it writes (here DIR), never a missing
            // directory above it, so a mistyped path fails instead of growing a tree of folders.
            let parent = PathText.deletingLastComponent(PathText.standardized(updates))
            if !parent.isEmpty, FileManager.default.isDirectory(atPath: parent) != true {
                DBGenPrinter().write(
                    "dbgen: error: cannot create \"\(updates)\": directory \"\(parent)\" does not exist")
                throw ExitCode(1)
            }
            let installer = UpdateInstaller(bundledPath: bundled, updatesDirectory: updates)
            do {
                let outcome: UpdateInstaller.Outcome
                if let database {
                    outcome = try installer.installDatabase(at: database, sha256: sha256)
                } else if let patch {
                    outcome = try installer.installPatch(at: patch, sha256: sha256)
                } else {
                    throw ValidationError("give --database or --patch")
                }
                print(outcome.userVersion)
                if outcome.wasAlreadyInstalled {
                    DBGenPrinter().write(
                        "\(database ?? patch ?? ""): note: already installed (user_version \(outcome.userVersion)); nothing changed"
                    )
                }
            } catch let error as LayeredDatabaseError {
                throw DBGenPrinter().fail(located: error)
            } catch {
                throw DBGenPrinter().fail(error)
            }
        }
    }
}
