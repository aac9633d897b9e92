import Foundation
import ShipyardTestSupport
import XCTest

#if os(Linux)
/// What a tool maps before it does any work: on Linux neither `dbgen`, `dbgen-plugin-tool` nor
/// `versionstamp` loads Foundation, CoreFoundation or ICU (Foundation's `_FoundationICU`, 30 MB
/// of data and tables the loader relocates), only FoundationEssentials: their libraries import
/// FoundationEssentials, and EssentialsSupport stands in for the rest. readelf reads each
/// executable's dynamic section, and the dynamic loader's own trace (`LD_DEBUG=files`) says
/// what a run loaded (a debug build links the Swift runtime as shared libraries, so a module
/// that imported Foundation would show here).
final class StartupLoadTests: XCTestCase {
    static let tools = ["dbgen", "dbgen-plugin-tool", "versionstamp"]
    static let foundation = [
        "libFoundation.so", "libFoundationInternationalization.so", "lib_FoundationICU.so",
        "libFoundationNetworking.so",
        "libFoundationXML.so",
    ]

    func testNoToolNeedsFoundation() throws {
        for tool in Self.tools {
            let result = try ProcessRunner.run("/usr/bin/readelf", ["-d", BuiltProducts.path(tool)])
            XCTAssertEqual(result.status, 0, result.stderrText)
            let needed = result.stdoutText.split(separator: "\n").filter { $0.contains("(NEEDED)") }
            XCTAssertTrue(needed.contains { $0.contains("libc.so") }, "\(tool): \(result.stdoutText)")
            let loaded = needed.filter { line in Self.foundation.contains { line.contains("[\($0)]") } }
            XCTAssertEqual(loaded, [], "\(tool) links Foundation")
        }
    }

    func testARunLoadsNoFoundation() throws {
        for (tool, arguments) in [
            ("dbgen", ["--version"]), ("dbgen-plugin-tool", ["--help"]), ("versionstamp", ["print", "--help"]),
        ] {
            let run = try BuiltProducts.run(tool, arguments, environment: ["LD_DEBUG": "files"])
            XCTAssertEqual(run.status, 0, run.stderrText.suffix(2_000).description)
            XCTAssertTrue(
                run.stderrText.contains("libFoundationEssentials.so"), "\(tool): the trace shows no load at all")
            for library in Self.foundation {
                XCTAssertFalse(run.stderrText.contains("file=\(library)"), "\(tool) \(arguments) loaded \(library)")
            }
        }
    }

    /// versionstamp opens libgit2 (CGit2Loader) when it first reads a repository: not linked, so
    /// `--version` maps neither it nor the seventeen libraries it links; `print` in a repository
    /// loads it and answers as git does.
    func testVersionstampOpensLibgit2OnlyToReadARepository() throws {
        let needed = try ProcessRunner.run("/usr/bin/readelf", ["-d", BuiltProducts.path("versionstamp")])
        XCTAssertFalse(needed.stdoutText.contains("libgit2"), "versionstamp links libgit2: \(needed.stdoutText)")
        let version = try BuiltProducts.run("versionstamp", ["--version"], environment: ["LD_DEBUG": "files"])
        XCTAssertEqual(version.status, 0, version.stderrText.suffix(2_000).description)
        XCTAssertTrue(version.stderrText.contains("file=libc.so"), "the trace shows no load at all")
        XCTAssertFalse(version.stderrText.contains("file=libgit2"), "versionstamp --version loaded libgit2")

        let fixture = try VersionStampGitFixture(self)
        try fixture.run("init", "-q", "-b", "main")
        try fixture.commit("one")
        try fixture.commit("two")
        let print = try fixture.versionstamp(["print", "--repo", fixture.root.path], extra: ["LD_DEBUG": "files"])
        XCTAssertEqual(print.status, 0, print.stderrText.suffix(2_000).description)
        XCTAssertEqual(print.stdoutText, try fixture.run("rev-list", "--count", "HEAD") + "\n")
        XCTAssertTrue(
            print.stderrText.contains("file=libgit2.so"), "versionstamp print read the repository without libgit2")
    }

    /// A libgit2 that cannot be opened is versionstamp's error at the first repository it
    /// opens, naming the library and the package, exit status 1: a preloaded `dlopen` (built
    /// here with cc) refuses every libgit2.
    func testAMissingLibgit2IsAnErrorThatNamesIt() throws {
        let fixture = try VersionStampGitFixture(self)
        try fixture.run("init", "-q", "-b", "main")
        try fixture.commit("one")
        let source = fixture.base.appendingPathComponent("no-libgit2.c")
        let library = fixture.base.appendingPathComponent("no-libgit2.so")
        try Data(
            """
            #define _GNU_SOURCE
            #include <dlfcn.h>
            #include <string.h>
            void *dlopen(const char *file, int mode) {
                if (file != NULL && strstr(file, "libgit2") != NULL) return NULL;
                void *(*real)(const char *, int) = (void *(*)(const char *, int))dlsym(RTLD_NEXT, "dlopen");
                return real(file, mode);
            }
            char *dlerror(void) { return "no libgit2 in this test"; }
            """.utf8
        ).write(to: source)
        let compiled = try ProcessRunner.run(
            "/usr/bin/env", ["cc", "-shared", "-fPIC", "-o", library.path, source.path, "-ldl"])
        XCTAssertEqual(compiled.status, 0, "cc (build-essential) is needed: " + compiled.stderrText)

        let version = try fixture.versionstamp(["--version"], extra: ["LD_PRELOAD": library.path])
        XCTAssertEqual(version.status, 0, version.stderrText)
        let print = try fixture.versionstamp(
            ["print", "--repo", fixture.root.path], extra: ["LD_PRELOAD": library.path])
        XCTAssertEqual(print.status, 1, print.stdoutText + print.stderrText)
        XCTAssertEqual(print.stdoutText, "")
        XCTAssertTrue(
            print.stderrText.hasPrefix(
                "versionstamp: error: cannot load libgit2.so.1.5 (Debian: apt-get install libgit2-1.5)"),
            print.stderrText)
        XCTAssertTrue(print.stderrText.contains("no libgit2 in this test"), print.stderrText)
    }
}
#endif
