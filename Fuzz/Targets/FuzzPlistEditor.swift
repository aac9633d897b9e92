// libFuzzer target for the plist editor: libxml2 validation, the byte scanner, in-place XML
// edits, binary plists, key paths, placeholder and key modes, the App Store rule.
// Compiled into the VersionStampKit module by scripts/fuzz.sh.
//
// Input layout: byte 0 picks the mode and the version string; the rest is the plist.
// Invariants beyond "no crash, no hang, no sanitizer report": a stamped plist parses again,
// and stamping it again with the same version changes nothing (the edit is exact and stable);
// every error names the file.
import Foundation

private let versions = ["1.2.3", "r42M", "a&b<c>\"'", "", "  spaced  ", "\u{e9}t\u{e9} \u{1F680}", "]]>", "4"]

private func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("FuzzPlistEditor invariant broken: \(message)\n".utf8))
    abort()
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPlistEditor(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size >= 1 else { return 0 }
    let selector = data[0]
    let bytes = Data(bytes: data + 1, count: size - 1)
    let version = versions[Int(selector & 7)]
    let mode: StampMode
    switch (selector >> 3) & 3 {
    case 0: mode = .automatic(placeholder: StampMode.defaultPlaceholder)
    case 1: mode = .placeholder("r0000")
    case 2: mode = .keys([.bundleVersion, PlistKeyPath(components: ["CFBundleShortVersionString"])])
    default: mode = .keys([PlistKeyPath(components: ["a", "0", "b"])])
    }
    let context = VersionContext(revision: nil, override: version)
    let document: PlistDocument
    do {
        document = try PlistDocument(data: bytes, path: "fuzz.plist")
    } catch let error as VersionStampError {
        if error.path != "fuzz.plist" { fail("parse error without the path: \(error)") }
        return 0
    } catch {
        fail("unexpected error type: \(error)")
    }
    _ = document.root.strings()
    let result: PlistStamper.Result
    do {
        result = try PlistStamper.stamp(document, mode: mode, format: nil, context: context, dirtyMarker: "M")
    } catch let error as VersionStampError {
        if error.path != "fuzz.plist" { fail("stamp error without the path: \(error)") }
        return 0
    } catch {
        fail("unexpected error type: \(error)")
    }
    if result.changes.isEmpty != (result.contents == bytes) {
        fail("\(result.changes.count) changes but contents \(result.contents == bytes ? "unchanged" : "changed")")
    }
    guard !result.changes.isEmpty else { return 0 }
    // The stamped file must parse and hold the new values; stamping again changes nothing.
    let again: PlistDocument
    do {
        again = try PlistDocument(data: result.contents, path: "fuzz.plist")
    } catch {
        fail("stamped output does not parse: \(error)")
    }
    let secondMode: StampMode
    if case .automatic = mode, result.changes.contains(where: { $0.oldValue.contains("r0000") }) {
        secondMode = .placeholder("r0000")
    } else {
        secondMode = mode
    }
    if case .placeholder = secondMode { return 0 } // the placeholder is gone; nothing to re-stamp
    do {
        let second = try PlistStamper.stamp(again, mode: secondMode, format: nil, context: context, dirtyMarker: "M")
        if !second.changes.isEmpty || second.contents != result.contents {
            fail("second stamp changed \(second.changes.map { "\($0.keyPath): '\($0.oldValue)' -> '\($0.newValue)'" })")
        }
    } catch {
        fail("second stamp failed: \(error)")
    }
    return 0
}
