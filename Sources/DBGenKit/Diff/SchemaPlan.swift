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

/// Which schema objects a patch drops and creates, and which tables' rows it compares
/// against what.
///
/// A table whose CREATE statement changed is dropped and created again from the new
/// statement (its rows then inserted), so the schema ends up exactly as in the new
/// database, SQL text included. Indexes, views and triggers that are new or changed are
/// created after the rows are in place; a table's triggers are also dropped before its
/// rows change (they would fire on the patch's own statements) and created again at the end.
struct SchemaPlan {
    /// Where a table's old rows come from.
    enum Baseline: Equatable {
        /// The same table in the old database.
        case old
        /// No rows: the table is created by the patch.
        case empty
        /// The rows a virtual table's module puts in its shadow tables when the patch
        /// creates it (read from a scratch database where the new CREATE was run).
        case scratch
        /// An internal table (`sqlite_stat1`) the patch creates with `ANALYZE sqlite_master`.
        case analyze
    }

    var dropTriggers: [String] = []
    var dropViews: [String] = []
    var dropIndexes: [String] = []
    var dropTables: [String] = []
    var createTables: [SchemaObject] = []
    var createIndexes: [SchemaObject] = []
    var createViews: [SchemaObject] = []
    /// Tables and views dropped (explicitly or with their virtual table).
    var droppedOwners: Set<String> = []
    /// Ordinary tables whose rows are compared, in order, with their baseline.
    var dataTables: [(name: String, baseline: Baseline)] = []

    init(old: SchemaCatalog, new: SchemaCatalog, only: String?) {
        func included(_ object: SchemaObject, _ catalog: SchemaCatalog) -> Bool {
            guard let only else { return true }
            return object.name == only || object.tableName == only || catalog.shadowParent[object.name] == only
        }
        func managed(_ object: SchemaObject, _ catalog: SchemaCatalog) -> Bool {
            object.sql != nil && !object.name.lowercased().hasPrefix("sqlite_")
                && catalog.shadowParent[object.name] == nil && included(object, catalog)
        }
        let olds = old.objects.values.filter { managed($0, old) }.sorted { $0.name.binaryPrecedes($1.name) }
        let news = new.objects.values.filter { managed($0, new) }.sorted { $0.name.binaryPrecedes($1.name) }
        for object in olds where new.objects[object.name] != object {
            switch object.type {
            case "trigger": dropTriggers.append(object.name)
            case "view": dropViews.append(object.name); droppedOwners.insert(object.name)
            case "index": dropIndexes.append(object.name)
            default: dropTables.append(object.name); droppedOwners.insert(object.name)
            }
        }
        let createdTables = Set(news.filter { $0.type == "table" && old.objects[$0.name] != $0 }.map(\.name))
        for object in news {
            let changed = old.objects[object.name] != object
            switch object.type {
            case "table" where changed: createTables.append(object)
            case "index" where changed || createdTables.contains(object.tableName): createIndexes.append(object)
            case "view" where changed: createViews.append(object)
            default: break
            }
        }
        planData(old: old, new: new, createdTables: createdTables, included: included)
    }

    private mutating func planData(
        old: SchemaCatalog, new: SchemaCatalog, createdTables: Set<String>,
        included: (SchemaObject, SchemaCatalog) -> Bool
    ) {
        for table in new.ordinaryTables where included(table, new) && table.name != "sqlite_sequence" {
            let baseline: Baseline
            if let parent = new.shadowParent[table.name], createdTables.contains(parent) {
                baseline = .scratch
            } else if createdTables.contains(table.name) {
                baseline = .empty
            } else if old.objects[table.name] == table {
                baseline = .old
            } else if table.name.lowercased().hasPrefix("sqlite_stat") {
                baseline = .analyze
            } else {
                baseline = .empty
            }
            dataTables.append((table.name, baseline))
        }
    }

    /// True when the patch recreates trigger `name` of the new database: it is new, changed,
    /// or was dropped (explicitly, with its table or view, or before its table's rows changed).
    func mustCreateTrigger(_ trigger: SchemaObject, old: SchemaCatalog, droppedTriggers: Set<String>) -> Bool {
        guard let previous = old.objects[trigger.name], previous == trigger else { return true }
        return droppedTriggers.contains(trigger.name) || droppedOwners.contains(trigger.tableName)
            || createTables.contains { $0.name == trigger.tableName }
    }
}
