import LayeredDatabase
import SQLiteCore

/// A user template whose script declares synced tables (a non-empty `shipyard_sync`) carries
/// the capture from the first launch: the build validates the declarations and installs the
/// capture (LayeredDatabase's `SyncCapture`) before sealing. A script that declares nothing is
/// built exactly as before.
enum SyncTemplateCapture {
    /// Validates the declarations of the database being built and installs the capture when
    /// tables sync.
    ///
    /// - Throws: ``DBGenError`` (code `syncDeclaration`) at the script statement that inserted the
    ///   refused declaration (the script itself when that is unknown), naming the table.
    static func install(on connection: Connection, sites: DeclarationSites, schema displayPath: String) throws {
        do {
            let declarations = try SyncDeclarations.read(from: connection)
            guard declarations.declaresSync else { return }
            try SyncCapture.refresh(on: connection)
        } catch let problem as SyncDeclarationProblem {
            let location =
                problem.declarationRowID.flatMap { sites.location(ofRow: $0, in: problem.catalog) }
                ?? SourceLocation(file: displayPath)
            throw DBGenError(.syncDeclaration, problem.description, at: location)
        } catch let error as SQLiteError {
            throw DBGenError(
                .sql, "cannot install the sync capture: \(error.message)", at: SourceLocation(file: displayPath))
        }
    }
}
