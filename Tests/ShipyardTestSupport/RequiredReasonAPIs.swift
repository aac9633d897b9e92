import Foundation

/// Apple's required-reason APIs ("Describing use of required reason API") as Shipyard's sources
/// could call them, and what a library's privacy manifest (`PrivacyInfo.xcprivacy`) declares:
/// Xcode refuses an app (ITMS-91053) whose code calls one undeclared. The privacy-manifest tests
/// of LayeredDatabase and FeedClient compare the two.
public enum RequiredReasonAPIs {
    /// Apple's categories and the calls in each that Swift code can make; a word must be called
    /// (`name(`) or used as a member or key to count.
    public static let categories: [(category: String, pattern: String)] = [
        (
            "NSPrivacyAccessedAPICategoryFileTimestamp",
            #"\b(stat|lstat|fstat|fstatat|getattrlist|getattrlistbulk|fgetattrlist|getattrlistat)\s*\(|\.(creationDate|modificationDate|fileModificationDate|contentModificationDateKey|creationDateKey)\b|\bst_(mtim|mtimespec|ctim|ctimespec|atim|atimespec|birthtimespec)\b"#
        ),
        ("NSPrivacyAccessedAPICategorySystemBootTime", #"\b(systemUptime|mach_absolute_time)\b"#),
        (
            "NSPrivacyAccessedAPICategoryDiskSpace",
            #"\b(statfs|statvfs|fstatfs|fstatvfs)\s*\(|\b(volumeAvailableCapacity\w*|volumeTotalCapacityKey|systemFreeSize|systemSize)\b"#
        ),
        ("NSPrivacyAccessedAPICategoryActiveKeyboards", #"\bactiveInputModes\b"#),
        ("NSPrivacyAccessedAPICategoryUserDefaults", #"\b(UserDefaults|NSUserDefaults)\b"#),
    ]

    /// The categories the Swift sources under `directories` use (every file, walked; comments
    /// and strings do not count), each with the first file that uses it.
    public static func usedCategories(in directories: [String]) throws -> [String: String] {
        var used: [String: String] = [:]
        for directory in directories {
            for file in try SwiftSourceScanner.files(under: directory) {
                let code = String(decoding: file.code, as: UTF8.self)
                for (category, pattern) in categories where code.range(of: pattern, options: .regularExpression) != nil
                {
                    used[category] = used[category] ?? file.path
                }
            }
        }
        return used
    }

    /// What the manifest at `path` (relative to the package root) declares: whether it says the
    /// library tracks, and each accessed-API category with its reasons.
    public static func declared(inManifest path: String) throws -> (tracking: Bool?, categories: [String: [String]]) {
        let data = try Data(contentsOf: SwiftSourceScanner.packageRoot.appendingPathComponent(path))
        guard let plist = try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any] else {
            throw CocoaError(.propertyListReadCorrupt, userInfo: [NSFilePathErrorKey: path])
        }
        var categories: [String: [String]] = [:]
        for entry in plist["NSPrivacyAccessedAPITypes"] as? [[String: Any]] ?? [] {
            guard let category = entry["NSPrivacyAccessedAPIType"] as? String else { continue }
            categories[category] = entry["NSPrivacyAccessedAPITypeReasons"] as? [String] ?? []
        }
        return (plist["NSPrivacyTracking"] as? Bool, categories)
    }

    /// Where `used` (``usedCategories(in:)``) and `declared` (``declared(inManifest:)``) of the
    /// manifest at `manifest` disagree: a category used but not declared with a reason, or
    /// declared but used by no source. Empty when the manifest is true to the sources.
    public static func mismatches(used: [String: String], declared: [String: [String]], manifest: String) -> [String] {
        var problems: [String] = []
        for (category, file) in used.sorted(by: { $0.key < $1.key }) where declared[category]?.isEmpty ?? true {
            problems.append("\(file) uses \(category), which \(manifest) does not declare with a reason")
        }
        for category in declared.keys.sorted() where used[category] == nil {
            problems.append("\(manifest) declares \(category), which no source it covers uses")
        }
        return problems
    }

    /// Why `target`'s privacy manifest is not a resource of it on Apple platforms, as
    /// Package.swift declares it (a Linux host leaves it out: Package.swift says why), so that
    /// SwiftPM and Xcode put it in the bundle; empty when it is.
    public static func manifestResourceProblems(target: String) throws -> [String] {
        let manifest = try SwiftSourceScanner.text("Package.swift")
        var problems: [String] = []
        let appleResource =
            #"let privacyManifest = (exclude: [String](), resources: [Resource.copy("PrivacyInfo.xcprivacy")])"#
        if !manifest.contains(appleResource) {
            problems.append("Package.swift: the privacy manifest is not a resource on Apple platforms")
        }
        guard let start = manifest.range(of: #"\.target\(\s*name: ""# + target + "\"", options: .regularExpression)
        else { return problems + ["Package.swift: no target \(target)"] }
        let rest = manifest[start.lowerBound...]
        let declaration = rest[..<(rest.range(of: "\n        .")?.lowerBound ?? rest.endIndex)]
        if !declaration.contains("exclude: privacyManifest.exclude, resources: privacyManifest.resources") {
            problems.append(
                "Package.swift: \(target) does not take privacyManifest's exclude and resources: \(declaration)")
        }
        return problems
    }

    /// The targets of this package that `target` links, itself included, read from
    /// `Package.swift`: the source directory (`Sources/NAME`) of each Swift or C target, the
    /// system libraries, and the products of other packages it reaches.
    public static func closure(of target: String) throws -> (
        sources: [String], systemLibraries: [String], otherPackages: [String]
    ) {
        let manifest = try SwiftSourceScanner.text("Package.swift")
        let declaration = try NSRegularExpression(
            pattern: #"\.(target|executableTarget|systemLibrary|testTarget|plugin)\(\s*name:\s*"([^"]+)""#)
        let matches = declaration.matches(in: manifest, range: NSRange(manifest.startIndex..., in: manifest))
        var kinds: [String: String] = [:]
        var dependencies: [String: (local: [String], products: [String])] = [:]
        for (index, match) in matches.enumerated() {
            let text = manifest as NSString
            let kind = text.substring(with: match.range(at: 1)), name = text.substring(with: match.range(at: 2))
            let end = index + 1 < matches.count ? matches[index + 1].range.location : text.length
            let block = text.substring(
                with: NSRange(location: match.range.location, length: end - match.range.location))
            kinds[name] = kind
            var local: [String] = [], products: [String] = []
            if let list = block.range(of: #"dependencies:\s*\[[^\]]*\]"#, options: .regularExpression) {
                let dependencyList = String(block[list])
                products = quoted(in: dependencyList, pattern: #"\.product\(\s*name:\s*"([^"]+)""#)
                let withoutProducts = dependencyList.replacingOccurrences(
                    of: #"\.product\([^)]*\)"#, with: "", options: .regularExpression)
                local = quoted(in: withoutProducts, pattern: #""([^"]+)""#)
            }
            dependencies[name] = (local, products)
        }
        var seen: [String] = [], pending = [target], otherPackages = Set<String>()
        while let name = pending.popLast() {
            guard !seen.contains(name) else { continue }
            seen.append(name)
            pending += dependencies[name]?.local ?? []
            otherPackages.formUnion(dependencies[name]?.products ?? [])
        }
        return (
            seen.filter { kinds[$0] != "systemLibrary" }.map { "Sources/" + $0 }.sorted(),
            seen.filter { kinds[$0] == "systemLibrary" }.sorted(), otherPackages.sorted()
        )
    }

    private static func quoted(in text: String, pattern: String) -> [String] {
        guard let expression = try? NSRegularExpression(pattern: pattern) else { return [] }
        return expression.matches(in: text, range: NSRange(text.startIndex..., in: text)).map {
            (text as NSString).substring(with: $0.range(at: 1))
        }
    }
}
