import CShellExtensions
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
import SQLiteCore

/// Registers the sqlite3 3.40.1 shell's own SQL functions, collations and virtual tables
/// (`readfile`, `fsdir`, `zipfile`, `generate_series`, `sha3`, `decimal_*`, `ieee754*`, the
/// `uint` collation, `regexp`, …, from CShellExtensions) on a build's connection, and is their
/// environment for the connection's life: the directory relative paths resolve against (the
/// running script's) and where the files they read are recorded as inputs.
///
/// Keep the host alive until the connection is closed.
final class ShellExtensionHost {
    private let environment: UnsafeMutablePointer<shipyard_shell_environment>
    private let inputRecorder: InputRecorder

    /// Registers the extensions on `connection`, relative paths resolving against
    /// `baseDirectory`; `recordInput` gets the absolute path of every file they read.
    init(connection: Connection, baseDirectory: String, recordInput: @escaping (String) -> Void) throws {
        inputRecorder = InputRecorder(recordInput)
        environment = .allocate(capacity: 1)
        environment.initialize(
            to: shipyard_shell_environment(
                base_directory: strdup(baseDirectory),
                record_input: { context, path in
                    guard let context, let path else { return }
                    Unmanaged<InputRecorder>.fromOpaque(context).takeUnretainedValue().record(String(cString: path))
                },
                context: Unmanaged.passUnretained(inputRecorder).toOpaque()))
        let status = shipyard_register_shell_extensions(try connection.openHandle(), environment)
        guard ResultCode(rawValue: status) == .SQLITE_OK else {
            throw DBGenError(.sql, "cannot register the shell's SQL functions: \(connection.errorMessage)")
        }
    }

    deinit {
        free(UnsafeMutableRawPointer(mutating: environment.pointee.base_directory))
        environment.deinitialize(count: 1)
        environment.deallocate()
    }

    /// The directory relative paths given to the functions resolve against from now on.
    func setBaseDirectory(_ directory: String) {
        let old = environment.pointee.base_directory
        environment.pointee.base_directory = UnsafePointer(strdup(directory))
        free(UnsafeMutableRawPointer(mutating: old))
    }

    /// What the C callback calls back into.
    private final class InputRecorder {
        let record: (String) -> Void
        init(_ record: @escaping (String) -> Void) { self.record = record }
    }
}
