import Foundation

/// Reads a binary property list (`bplist00`) with Foundation and writes it back binary with
/// new string values. Every other value keeps its type and content; the byte layout is
/// Foundation's (a binary plist has no formatting worth preserving).
struct PlistBinaryEditor {
    /// One step from a container to a value inside it.
    enum Step: Equatable {
        case key(String)
        case index(Int)
    }

    static let magic = Array("bplist00".utf8)

    let path: String
    let object: Any
    let root: PlistNode
    /// The location of each string, indexed by ``PlistString/slot``.
    private let stringSteps: [[Step]]

    init(data: Data, path: String) throws {
        self.path = path
        // Foundation crashes on some malformed object graphs: check the structure first.
        try PlistBinaryValidator.validate([UInt8](data), path: path)
        var format = PropertyListSerialization.PropertyListFormat.binary
        do {
            object = try PropertyListSerialization.propertyList(from: data, options: [], format: &format)
        } catch {
            throw VersionStampError(.malformedPlist, path: path, message: "malformed binary plist: \(error.localizedDescription)")
        }
        var steps: [[Step]] = []
        func build(_ value: Any, _ at: [Step]) -> PlistNode {
            if let dictionary = value as? [String: Any] {
                return .dictionary(dictionary.keys.sorted().map { ($0, build(dictionary[$0]!, at + [.key($0)])) }, line: nil)
            }
            if let array = value as? [Any] {
                return .array(array.enumerated().map { build($0.element, at + [.index($0.offset)]) }, line: nil)
            }
            if let string = value as? String {
                steps.append(at)
                return .string(PlistString(value: string, slot: steps.count - 1, line: nil))
            }
            return .other(type: String(describing: type(of: value)), line: nil)
        }
        root = build(object, [])
        stringSteps = steps
    }

    /// The property list with `edits` applied, serialized as a binary plist.
    func applying(_ edits: [PlistStringEdit]) throws -> Data {
        var object = self.object
        for edit in edits {
            object = Self.replacing(in: object, at: stringSteps[edit.slot][...], with: edit.newValue)
        }
        do {
            let data = try PropertyListSerialization.data(fromPropertyList: object, format: .binary, options: 0)
            // Read it back: the stamped strings must be there.
            let reread = try PlistBinaryEditor(data: data, path: path)
            let strings = Dictionary(reread.root.strings().map { ($0.path, $0.string.value) }, uniquingKeysWith: { a, _ in a })
            let expected = root.strings()
            for edit in edits {
                guard let entry = expected.first(where: { $0.string.slot == edit.slot }),
                      strings[entry.path] == edit.newValue else {
                    throw VersionStampError(.internalError, path: path, message: "internal error: the rewritten binary plist lost a stamped value")
                }
            }
            return data
        } catch let error as VersionStampError {
            throw error
        } catch {
            throw VersionStampError(.writeFailed, path: path, message: "cannot write the binary plist: \(error.localizedDescription)")
        }
    }

    private static func replacing(in value: Any, at steps: ArraySlice<Step>, with newValue: String) -> Any {
        guard let step = steps.first else { return newValue }
        switch step {
        case let .key(key):
            guard var dictionary = value as? [String: Any], let inner = dictionary[key] else { return value }
            dictionary[key] = replacing(in: inner, at: steps.dropFirst(), with: newValue)
            return dictionary
        case let .index(index):
            guard var array = value as? [Any], index < array.count else { return value }
            array[index] = replacing(in: array[index], at: steps.dropFirst(), with: newValue)
            return array
        }
    }
}
