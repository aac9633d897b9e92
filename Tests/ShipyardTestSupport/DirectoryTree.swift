import Foundation

/// Every regular file under a directory with its bytes, by path relative to it: two trees
/// compare equal when they hold the same files with the same bytes.
public enum DirectoryTree {
    /// The regular files under `path` (hidden ones too), relative path to bytes.
    public static func files(under path: String) -> [String: Data] {
        var files: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(atPath: path)
        while let name = enumerator?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            let full = path + "/" + name
            if FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory), !isDirectory.boolValue {
                files[name] = FileManager.default.contents(atPath: full)
            }
        }
        return files
    }
}
