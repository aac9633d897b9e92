import DBGenKit
import Foundation
import GRDB
import LayeredDatabase

// GRDBExample: the whole data lifecycle of an app that uses GRDB.
//
// 1. Build time: food.sqlite (user_version 1) was built from food.dbgen.txt by
//    DBGenBuildToolPlugin, sealed in rollback-journal mode, and ships as a resource.
// 2. Release time: a newer food database (user_version 2) is built, and `dbgen diff` makes
//    the patch between the two (here with DBGenKit's DatabaseDiff, as the CLI does).
// 3. Run time: the app downloads the patch and installs it with UpdateInstaller (checked,
//    atomic); every GRDB connection opened afterwards attaches the newer data through
//    Configuration.prepareDatabase.
//
// Usage: GRDBExample [APP-DATA-DIRECTORY]   (a fresh temporary directory by default)

struct ExampleError: Error, CustomStringConvertible {
    let description: String
}

let bundled =
    try Bundle.module.url(forResource: "food", withExtension: "sqlite").map(\.path)
    ?? { throw ExampleError(description: "food.sqlite is missing from the bundle") }()
let appData =
    CommandLine.arguments.count > 1
    ? URL(fileURLWithPath: CommandLine.arguments[1], isDirectory: true)
    : FileManager.default.temporaryDirectory.appendingPathComponent("GRDBExample-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: appData, withIntermediateDirectories: true)
let updates = appData.appendingPathComponent("food-updates").path
let userPath = appData.appendingPathComponent("user.sqlite").path

// No process-wide switch: GRDB opens without SQLITE_OPEN_URI, and the system SQLite (Apple's,
// Debian's) is built with SQLITE_USE_URI, so the `file:…?mode=ro&immutable=1` attachment is
// read as a URI; where it is not, `attach` fails and attaches nothing.

/// The GRDB configuration of the app: the shipped data (bundled, or the installed update when
/// newer) attached as "bundle" to every connection GRDB opens.
func configuration() -> Configuration {
    var configuration = Configuration()
    configuration.prepareDatabase { db in
        guard let handle = db.sqliteConnection else { return }
        try ShippedDatabaseAttachment.attach(to: handle, bundledPath: bundled, updatesDirectory: updates)
    }
    return configuration
}

func report(_ label: String, _ reader: some DatabaseReader) throws {
    let (version, names) = try reader.read { db in
        (
            try Int.fetchOne(db, sql: "PRAGMA bundle.user_version") ?? 0,
            try String.fetchAll(db, sql: "SELECT name FROM bundle.food ORDER BY pk")
        )
    }
    print("\(label): bundle user_version \(version): \(names.joined(separator: ", "))")
}

// 1. First launch: the bundled data.
let queue = try DatabaseQueue(path: userPath, configuration: configuration())
try queue.write { db in
    try db.execute(sql: "CREATE TABLE IF NOT EXISTS favorite (food INTEGER, note TEXT)")
    try db.execute(sql: "INSERT INTO favorite SELECT pk, 'mine' FROM bundle.food WHERE name = 'Banana'")
}
try report("DatabaseQueue, bundled", queue)
do {
    try queue.write { db in try db.execute(sql: "DELETE FROM bundle.food") }
    print("error: the shipped data was writable")
    exit(1)
} catch let error as DatabaseError where error.resultCode == .SQLITE_READONLY {
    print("DatabaseQueue: writing into bundle fails: \(error.message ?? "read-only")")
}

// 2. Release time: version 2 of the data, and the patch from version 1.
let release = appData.appendingPathComponent("release")
try FileManager.default.createDirectory(at: release, withIntermediateDirectories: true)
let version2 = release.appendingPathComponent("food-v2.sqlite").path
try? FileManager.default.removeItem(atPath: version2)
try FileManager.default.copyItem(atPath: bundled, toPath: version2)
try DatabaseQueue(path: version2).write { db in
    try db.execute(sql: "UPDATE food SET name = 'Green apple', kcal = 256.09000000000003 WHERE pk = 1")
    try db.execute(sql: "INSERT INTO food VALUES (4, 'Kiwi', 61.0)")
    try db.execute(sql: "PRAGMA user_version = 2")
}
let patch = release.appendingPathComponent("food-1-2.sql")
try DatabaseDiff(oldPath: bundled, newPath: version2).patch().write(to: patch, atomically: true, encoding: .utf8)
print("Release: patch of \(try Data(contentsOf: patch).count) bytes")

// 3. Run time: install the downloaded patch (checked, atomic), then open new connections.
let installed = try UpdateInstaller(bundledPath: bundled, updatesDirectory: updates).installPatch(at: patch.path)
print("Installed update: user_version \(installed.userVersion)")
try report("DatabaseQueue, after the update", try DatabaseQueue(path: userPath, configuration: configuration()))
let pool = try DatabasePool(
    path: appData.appendingPathComponent("user-pool.sqlite").path, configuration: configuration())
try report("DatabasePool, after the update", pool)
let exact = try pool.read { db in try Double.fetchOne(db, sql: "SELECT kcal FROM bundle.food WHERE pk = 1") }
print("Exact REAL carried by the patch: \(exact.map { "\($0)" } ?? "NULL")")
let favorites = try queue.read { db in try String.fetchAll(db, sql: "SELECT note FROM favorite") }
print("User rows kept: \(favorites.joined(separator: ", "))")
