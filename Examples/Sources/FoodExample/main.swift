import Foundation
import LayeredDatabase

// FoodExample: what an app that ships data does at launch.
//
// - food.sqlite was built from food.dbgen.txt + food.csv during `swift build` by
//   DBGenBuildToolPlugin and ships as a resource (Bundle.module).
// - user.sqlite (from user.dbgen.txt) is the empty user template, copied on first run to the
//   user's data directory: the first argument, or Application Support/ShipyardFoodExample.
// - BuildVersion was generated from the git revision by VersionConstantsBuildToolPlugin.
//
// Usage: FoodExample [USER-DATA-DIRECTORY]

func resource(_ name: String) throws -> String {
    guard let url = Bundle.module.url(forResource: name, withExtension: "sqlite") else {
        throw ExampleError("\(name).sqlite is missing from the bundle: was the build-tool plugin attached?")
    }
    return url.path
}

struct ExampleError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

func userDataDirectory() throws -> URL {
    if CommandLine.arguments.count > 1 {
        return URL(fileURLWithPath: CommandLine.arguments[1], isDirectory: true)
    }
    return try FileManager.default
        .url(for: .applicationSupportDirectory, in: .userDomainMask, appropriateFor: nil, create: true)
        .appendingPathComponent("ShipyardFoodExample", isDirectory: true)
}

do {
    let directory = try userDataDirectory()
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let database = try LayeredDatabase(
        userPath: directory.appendingPathComponent("user.sqlite").path,
        templatePath: try resource("user"),
        bundledPath: try resource("food")
    )
    switch database.installOutcome {
    case .createdFromTemplate, .createdEmpty:
        print("User database: created from template at \(database.userPath)")
    case .alreadyExisted:
        print("User database: opened \(database.userPath)")
    }

    // The user's own row, pointing at a shipped row; added once, kept across runs.
    try database.execute(
        """
        INSERT INTO favorite (food, note)
        SELECT pk, 'added on first run' FROM bundle.food
        WHERE name = 'Banana' AND NOT EXISTS (SELECT 1 FROM favorite WHERE food = bundle.food.pk)
        """)

    let shipped = try database.query("SELECT count(*) FROM bundle.food")
    print("Shipped foods: \(shipped[0][0].shellText)")
    for row in try database.query(
        """
        SELECT f.name, f."desc" FROM favorite JOIN bundle.food AS f ON f.pk = favorite.food ORDER BY f.pk
        """)
    {
        print("Favorite: \(row[0].shellText) - \(row[1].shellText)")
    }
    print("Build version: \(BuildVersion.version)")
} catch {
    FileHandle.standardError.write(Data("FoodExample: error: \(error)\n".utf8))
    exit(1)
}
