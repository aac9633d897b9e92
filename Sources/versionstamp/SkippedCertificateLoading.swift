// versionstamp never opens a network connection, yet `git_libgit2_init` in a libgit2 built with
// mbedTLS (Debian's and Ubuntu's libgit2-dev) parses every certificate of the system's CA bundle
// (/etc/ssl/certs/ca-certificates.crt) for HTTPS it will never use, a large part of a warm
// `versionstamp print` (docs/Performance.md, "No CA bundle", has the figures). libgit2 1.5
// offers no way to skip it: the location is compiled in and the loading is part of the
// library's initialisation.
//
// So this executable defines the two mbedTLS functions that load certificates, and they load
// nothing. On Linux an executable's exported definitions come first in the dynamic linker's
// symbol lookup, so libgit2's calls bind to these instead of libmbedx509's (SwiftPM exports an
// executable's public symbols; EndToEndTests' `testLibgit2LoadsNoCertificates` checks with
// strace that the bundle is looked at but never opened). libgit2 then configures an empty chain
// of trusted certificates: a TLS connection made from this process would fail its certificate
// check, closed rather than open. Only the versionstamp executable does this (and the test
// bundle that links it); VersionStampKit used in another program leaves libgit2 as it is.
// A libgit2 built with OpenSSL never calls these functions, and on Apple platforms, whose
// two-level namespace binds each call to the library it was linked against, nothing binds to
// them: there the definitions are not compiled.
#if os(Linux)
/// Stands in for mbedTLS's `mbedtls_x509_crt_parse_file` in this process: loads no certificate
/// and reports success (0 certificates failed to parse). See the comment at the top of the file.
@_cdecl("mbedtls_x509_crt_parse_file")
public func skipCertificateFile(_ chain: UnsafeMutableRawPointer?, _ path: UnsafePointer<CChar>?) -> Int32 {
    0
}

/// Stands in for mbedTLS's `mbedtls_x509_crt_parse_path` (a directory of certificates, where
/// libgit2 was built with a directory as its location) as ``skipCertificateFile(_:_:)`` does.
@_cdecl("mbedtls_x509_crt_parse_path")
public func skipCertificateDirectory(_ chain: UnsafeMutableRawPointer?, _ path: UnsafePointer<CChar>?) -> Int32 {
    0
}
#endif
