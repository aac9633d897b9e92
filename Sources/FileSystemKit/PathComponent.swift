/// One name in a directory, checked: 1 to 255 bytes of UTF-8, neither `.` nor `..`, without `/`,
/// NUL or another control character.
package struct PathComponent: Hashable, Sendable, CustomStringConvertible {
    /// The name.
    package let name: String
    /// The longest name, in bytes of UTF-8 (`NAME_MAX` on Linux and Darwin).
    package static let maximumBytes = 255

    /// `name`, checked.
    ///
    /// - Throws: ``CheckedNameError`` saying what is wrong with it.
    package init(_ name: String) throws {
        let bytes = name.utf8
        guard !bytes.isEmpty else { throw CheckedNameError(name, "is empty") }
        guard name != ".", name != ".." else { throw CheckedNameError(name, "is \(name), a directory, not a name") }
        guard bytes.count <= Self.maximumBytes else {
            throw CheckedNameError(
                name, "is \(bytes.count) bytes long, more than the \(Self.maximumBytes) a name may be")
        }
        if bytes.contains(UInt8(ascii: "/")) { throw CheckedNameError(name, "holds a /") }
        if bytes.contains(0) { throw CheckedNameError(name, "holds a NUL byte") }
        if bytes.contains(where: { $0 < 0x20 || $0 == 0x7F }) {
            throw CheckedNameError(name, "holds a control character")
        }
        self.name = name
    }

    package var description: String { name }
}
