/// The version of Shipyard's tools and libraries, defined here and nowhere else:
/// `dbgen --version`, `versionstamp --version`, the header of generated files and dbgen's
/// up-to-date record (a new dbgen rebuilds) all read it.
public enum ShipyardVersion {
    /// The release this source tree is (semantic versioning).
    public static let current = "0.2.0"
}
