import Foundation

/// The smallest Info.plist an app target has for versionstamp's two keys, as Xcode writes
/// it (XML, tab-indented), for the stamp tests of the library and of the executable.
public enum InfoPlistFixture {
    /// The XML text with `CFBundleShortVersionString` = `short` and `CFBundleVersion` = `version`.
    public static func xml(short: String, version: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0">
        <dict>
        \t<key>CFBundleShortVersionString</key>
        \t<string>\(short)</string>
        \t<key>CFBundleVersion</key>
        \t<string>\(version)</string>
        </dict>
        </plist>

        """
    }

    /// Writes that plist as `Info.plist` in `directory` and returns its URL.
    @discardableResult
    public static func write(in directory: URL, short: String, version: String) throws -> URL {
        let url = directory.appendingPathComponent("Info.plist")
        try Data(xml(short: short, version: version).utf8).write(to: url)
        return url
    }
}
