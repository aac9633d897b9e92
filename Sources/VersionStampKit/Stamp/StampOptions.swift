/// What `versionstamp stamp` was asked to do.
public struct StampOptions: Equatable, Sendable {
    /// The plist files to stamp (may be empty when only generated files are asked for).
    public var plists: [String]
    /// `--output DEST`: the stamped result of the one plist in ``plists`` (its source, left
    /// untouched) is written to this file instead, atomically and only when its content
    /// changes. The way to stamp the built copy of a plist kept in the repository, whose
    /// placeholder must survive for the next build. Nil: each plist is stamped in place.
    public var output: String?
    /// `--format`; nil uses the mode's default (`r{count}{dirty}` / `{count}`).
    public var format: String?
    /// How strings are chosen.
    public var mode: StampMode
    /// `--dirty-marker`: what `{dirty}` renders as when the work tree is modified.
    public var dirtyMarker: String
    /// `--swift FILE`, `--json FILE`, `--xcconfig FILE`.
    public var generatedFiles: [GeneratedVersionFile: String]
    /// `--force`: overwrite a value that is an Xcode build-setting reference (`$(NAME)`).
    public var force: Bool

    /// Options for stamping `plists` (or, with `output`, for writing the stamped one there);
    /// the defaults are those of `versionstamp stamp`.
    public init(
        plists: [String], output: String? = nil, format: String? = nil,
        mode: StampMode = .automatic(placeholder: StampMode.defaultPlaceholder),
        dirtyMarker: String = "M", generatedFiles: [GeneratedVersionFile: String] = [:], force: Bool = false
    ) {
        self.plists = plists
        self.output = output
        self.format = format
        self.mode = mode
        self.dirtyMarker = dirtyMarker
        self.generatedFiles = generatedFiles
        self.force = force
    }

    /// The mode for `--key`, `--set` and `--placeholder` as given (`--placeholder` with either
    /// of the others is a usage error, as is a `--set` without `=`).
    public static func mode(keys: [String], assignments: [String] = [], placeholder: String?) throws -> StampMode {
        if (!keys.isEmpty || !assignments.isEmpty) && placeholder != nil {
            let option = keys.isEmpty ? "--set" : "--key"
            throw VersionStampError(
                .usage,
                message:
                    "\(option) and --placeholder cannot be used together: a stamp either sets keys or replaces a placeholder"
            )
        }
        if !assignments.isEmpty {
            let plain = try keys.map { KeyAssignment(try PlistKeyPath(parsing: $0)) }
            return .assignments(plain + (try assignments.map(KeyAssignment.init(parsing:))))
        }
        if let placeholder {
            guard !placeholder.isEmpty else {
                throw VersionStampError(.usage, message: "--placeholder must not be empty")
            }
            return .placeholder(placeholder)
        }
        if !keys.isEmpty { return .keys(try keys.map(PlistKeyPath.init(parsing:))) }
        return .automatic(placeholder: StampMode.defaultPlaceholder)
    }

    /// The plists to stamp: `plists` when given; otherwise, when no generated file is asked
    /// for either, Xcode's `$BUILT_PRODUCTS_DIR/$INFOPLIST_PATH`. Throws a usage message when
    /// there is nothing to stamp.
    public static func resolvePlists(
        _ plists: [String], generatingFiles: Bool,
        environment: [String: String]
    ) throws -> [String] {
        if !plists.isEmpty || generatingFiles { return plists }
        if let products = environment["BUILT_PRODUCTS_DIR"], !products.isEmpty,
            let infoPlist = environment["INFOPLIST_PATH"], !infoPlist.isEmpty
        {
            return [products.hasSuffix("/") ? products + infoPlist : products + "/" + infoPlist]
        }
        throw VersionStampError(
            .usage,
            message:
                "no PLIST given: name the plist files to stamp, run from an Xcode build phase (which sets BUILT_PRODUCTS_DIR and INFOPLIST_PATH), or ask for --swift/--json/--xcconfig output"
        )
    }
}
