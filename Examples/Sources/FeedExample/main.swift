import FeedClient
import Foundation
import LayeredDatabase

// FeedExample: an app that updates its shipped data over the air.
//
// - food.sqlite (release 1) was built from Data/food.dbgen.txt + food.csv during `swift build` by
//   DBGenBuildToolPlugin and ships as a resource (Bundle.module).
// - The release machine (Feed/publish.sh) published release 1 and release 2 to a signed feed,
//   which nginx serves (Feed/serve.sh). An app bundles the feed's root.json; here the key is
//   made when the example runs, so the root is given on the command line.
// - At launch the app checks the feed, installs what is new (a patch from the data it has), and
//   opens its LayeredDatabase, which attaches the newest installed data.
//
// Usage: FeedExample FEED-URL ROOT-JSON APP-DATA-DIRECTORY

struct ExampleError: Error, CustomStringConvertible {
    let description: String
}

/// The shipped data's version, its number of foods, and the names of the first three and of any
/// beyond the first release's 300.
func summary(of database: LayeredDatabase) throws -> String {
    let version = try database.query("PRAGMA bundle.user_version")[0][0].shellText
    let count = try database.query("SELECT count(*) FROM bundle.food")[0][0].shellText
    let names = try database.query("SELECT name FROM bundle.food WHERE pk <= 3 OR pk > 300 ORDER BY pk")
        .map { $0[0].shellText }
    return "user_version \(version), \(count) foods: \(names.joined(separator: ", "))"
}

do {
    let arguments = CommandLine.arguments
    guard arguments.count == 4, let feedURL = URL(string: arguments[1]) else {
        throw ExampleError(description: "usage: FeedExample FEED-URL ROOT-JSON APP-DATA-DIRECTORY")
    }
    guard let bundled = Bundle.module.url(forResource: "food", withExtension: "sqlite")?.path else {
        throw ExampleError(description: "food.sqlite is missing from the bundle: was the build-tool plugin attached?")
    }
    let appData = URL(fileURLWithPath: arguments[3], isDirectory: true)
    try FileManager.default.createDirectory(at: appData, withIntermediateDirectories: true)
    let userPath = appData.appendingPathComponent("user.sqlite").path
    let updates = appData.appendingPathComponent("food-updates").path

    let before = try LayeredDatabase(userPath: userPath, bundledPath: bundled, updatesDirectory: updates)
    print("Before: \(try summary(of: before))")

    // The few lines an app needs: check, then install what the check found.
    let updater = FeedUpdater(
        feedURL: feedURL, bundledRoot: try Data(contentsOf: URL(fileURLWithPath: arguments[2])),
        bundledDatabasePath: bundled, updatesDirectory: updates, dataFormat: 1)
    let plan = try await updater.check()
    if plan.isNothingNew {
        print("Nothing new: user_version \(plan.userVersionInEffect) is the newest")
    } else {
        print("Update: \(plan)") // user_version 1 -> 2: 1 patch, N bytes
        try await updater.update(plan) { event in
            if case .installed(_, let userVersion) = event { print("Installed: user_version \(userVersion)") }
        }
    }

    // The open database keeps what it attached; a new one (the next launch) sees the update.
    let after = try LayeredDatabase(userPath: userPath, bundledPath: bundled, updatesDirectory: updates)
    print("After: \(try summary(of: after))")
} catch {
    FileHandle.standardError.write(Data("FeedExample: error: \(error)\n".utf8))
    exit(1)
}
