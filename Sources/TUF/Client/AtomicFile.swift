import Foundation

/// Writes a file by writing a temporary file beside it, syncing it, and renaming it over the destination.
enum AtomicFile {
    static func write(_ data: Data, to destination: URL) throws {
        let directory = destination.deletingLastPathComponent()
        let temporary = directory.appendingPathComponent(".\(destination.lastPathComponent).\(UUID().uuidString).tmp")
        do {
            guard FileManager.default.createFile(atPath: temporary.path, contents: nil) else {
                throw TUFError.storage(path: temporary.path, reason: "cannot create")
            }
            let handle = try FileHandle(forWritingTo: temporary)
            handle.write(data)
            handle.synchronizeFile()
            handle.closeFile()
            guard rename(temporary.path, destination.path) == 0 else {
                throw TUFError.storage(path: destination.path, reason: String(cString: strerror(errno)))
            }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            if let error = error as? TUFError { throw error }
            throw TUFError.storage(path: destination.path, reason: "\(error)")
        }
    }
}
