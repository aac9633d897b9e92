/// A relative path of checked names, `a/b/c`: at least one name, at most 1024 bytes in all.
package struct RelativePath: Hashable, Sendable, CustomStringConvertible {
    /// The names, outermost first.
    package let components: [PathComponent]
    /// The longest path, in bytes of UTF-8 (`PATH_MAX` on Darwin).
    package static let maximumBytes = 1024

    /// The path `a/b/c`, each name checked (so an empty one, from a leading, trailing or double
    /// `/`, is refused).
    ///
    /// - Throws: ``CheckedNameError`` naming the whole path and what is wrong.
    package init(_ path: String) throws {
        do {
            try self.init(
                path.split(separator: "/", omittingEmptySubsequences: false).map { try PathComponent(String($0)) })
        } catch let error as CheckedNameError {
            throw CheckedNameError(
                path,
                error.value == path ? error.reason : "holds \(error.value.debugDescription), which \(error.reason)")
        }
    }

    /// The path of `components`.
    ///
    /// - Throws: ``CheckedNameError`` when there are none, or the path is too long.
    package init(_ components: [PathComponent]) throws {
        let path = components.map(\.name).joined(separator: "/")
        guard !components.isEmpty else { throw CheckedNameError(path, "is empty") }
        guard path.utf8.count <= Self.maximumBytes else {
            throw CheckedNameError(path, "is \(path.utf8.count) bytes long, more than the \(Self.maximumBytes) allowed")
        }
        self.components = components
    }

    /// `a/b/c`.
    package var string: String { components.map(\.name).joined(separator: "/") }

    package var description: String { string }

    /// The path under a directory's path.
    package func under(_ directory: String) -> String {
        (directory.hasSuffix("/") ? directory : directory + "/") + string
    }
}
