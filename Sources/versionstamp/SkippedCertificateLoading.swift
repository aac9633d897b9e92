#if os(Linux)
import CGit2Loader
#endif

/// versionstamp never opens a network connection, yet `git_libgit2_init` in a libgit2 built with
/// mbedTLS (Debian's and Ubuntu's libgit2-dev) parses every certificate of the system's CA bundle
/// (/etc/ssl/certs/ca-certificates.crt) for HTTPS it will never use, a large part of a warm
/// `versionstamp print` (docs/Performance.md, "No CA bundle", has the figures). libgit2 1.5
/// offers no way to skip it: the location is compiled in and the loading is part of the
/// library's initialisation.
///
/// On Linux libgit2 is opened at its first call (CGit2Loader), and this executable asks the
/// loader to point libgit2's two references to mbedTLS's certificate loaders at functions that
/// load nothing (EndToEndTests' `testLibgit2LoadsNoCertificates` checks with strace that the
/// bundle is looked at but never opened). libgit2 then configures an empty chain of trusted
/// certificates: a TLS connection made from this process would fail its certificate check,
/// closed rather than open. Only the versionstamp executable does this; VersionStampKit used in
/// another program leaves libgit2 as it is. A libgit2 built with OpenSSL has no such
/// references, and on Apple platforms (libgit2 linked as usual) nothing changes.
enum SkippedCertificateLoading {
    /// Asks for it; before the first libgit2 call.
    static func apply() {
        #if os(Linux)
        shipyard_git2_skip_certificate_loading()
        #endif
    }
}
