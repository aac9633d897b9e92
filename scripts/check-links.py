#!/usr/bin/env python3
"""Checks the links of Shipyard's Markdown documents, offline.

    scripts/check-links.py [FILE.md ...]     (default: README.md, CONTRIBUTING.md, ARCHITECTURE.md, docs/*.md)
    scripts/check-links.py --self-test       (the checker's own tests)

Every relative link must name a file or directory of the repository, and every #anchor a
heading (or an explicit <a name>/id) of the document it points into, with the anchors GitHub
generates. External links (http, https, mailto) are checked for form only: CI has no
network. Links inside code blocks and code spans are not links and are skipped.

Errors are printed as PATH:LINE: error: MESSAGE; the exit status is 1 when there is any.
"""

import os
import re
import sys
import unicodedata
from urllib.parse import unquote, urlsplit

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
HEADING = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.*?)[ \t#]*$")
CODE_SPAN = re.compile(r"(`+)(?:.+?)\1")
INLINE_LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*(<[^>]*>|[^\s()]*(?:\([^\s()]*\)[^\s()]*)*)(?:\s+(?:\"[^\"]*\"|'[^']*'|\([^)]*\)))?\s*\)")
REFERENCE_DEFINITION = re.compile(r"^ {0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)")
AUTOLINK = re.compile(r"<((?:https?|mailto):[^>\s]*)>")
HTML_HREF = re.compile(r"""\b(?:href|src)\s*=\s*["']([^"']+)["']""")
HTML_ANCHOR = re.compile(r"""<a\s[^>]*\b(?:name|id)\s*=\s*["']([^"']+)["']""")


def slug(heading):
    """The anchor GitHub gives a heading: its text, lowercased, punctuation removed, spaces
    turned into hyphens (github-slugger)."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # links and images: their text
    text = re.sub(r"<[^>]+>", "", text)  # inline HTML
    text = text.replace("`", "")  # code spans: their text (other punctuation goes below)
    text = text.strip().lower()
    kept = []
    for ch in text:
        category = unicodedata.category(ch)
        if ch in "-_ " or category[0] in "LNM":
            kept.append("-" if ch == " " else ch)
    return "".join(kept)


def scan(text):
    """The document's anchors and its links as (line, target), outside code."""
    anchors, counts, links = set(), {}, []
    in_fence = None
    for number, line in enumerate(text.splitlines(), 1):
        fence = FENCE.match(line)
        if in_fence:
            if fence and fence.group(1)[0] == in_fence[0] and len(fence.group(1)) >= len(in_fence):
                in_fence = None
            continue
        if fence:
            in_fence = fence.group(1)
            continue
        heading = HEADING.match(line)
        if heading:
            base = slug(heading.group(2))
            n = counts.get(base, 0)
            counts[base] = n + 1
            anchors.add(base if n == 0 else f"{base}-{n}")
        for name in HTML_ANCHOR.findall(line):
            anchors.add(name)
        visible = CODE_SPAN.sub(lambda m: " " * len(m.group(0)), line)
        for pattern in (INLINE_LINK, REFERENCE_DEFINITION, AUTOLINK, HTML_HREF):
            for match in pattern.finditer(visible):
                target = match.group(1)
                if target.startswith("<") and target.endswith(">"):
                    target = target[1:-1]
                links.append((number, target))
    return anchors, links


def check_external(target):
    parts = urlsplit(target)
    if parts.scheme == "mailto":
        return None if re.fullmatch(r"[^@\s]+@[^@\s]+\.[^@\s]+", parts.path) else "malformed mailto link"
    if parts.scheme not in ("http", "https"):
        return f"unsupported link scheme '{parts.scheme}'"
    if parts.scheme == "http":
        return "insecure http link (use https)"
    host = parts.hostname or ""
    if not re.fullmatch(r"[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+", host):
        return f"malformed host '{host}'"
    if re.search(r"\s", target):
        return "whitespace in a link"
    return None


def check_file(path, cache):
    errors = []
    text = open(path, encoding="utf-8").read()
    anchors, links = cache.setdefault(os.path.abspath(path), scan(text))
    for line, target in links:
        where = f"{os.path.relpath(path, ROOT)}:{line}"
        if not target:
            errors.append(f"{where}: error: empty link")
            continue
        if re.match(r"^[A-Za-z][A-Za-z0-9+.-]*:", target):
            problem = check_external(target)
            if problem:
                errors.append(f"{where}: error: {problem}: {target}")
            continue
        file_part, _, anchor = target.partition("#")
        file_part = unquote(file_part)
        if file_part.startswith("/"):
            errors.append(f"{where}: error: absolute path (write it relative to this file): {target}")
            continue
        destination = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(path)), file_part)) if file_part else os.path.abspath(path)
        if not (destination == ROOT or destination.startswith(ROOT + os.sep)):
            errors.append(f"{where}: error: link leaves the repository: {target}")
            continue
        if not os.path.exists(destination):
            errors.append(f"{where}: error: no such file: {target}")
            continue
        if anchor:
            if not destination.endswith(".md") or os.path.isdir(destination):
                errors.append(f"{where}: error: an anchor into a file that is not Markdown: {target}")
                continue
            if destination not in cache:
                cache[destination] = scan(open(destination, encoding="utf-8").read())
            if unquote(anchor) not in cache[destination][0]:
                errors.append(f"{where}: error: no heading for #{anchor} in {os.path.relpath(destination, ROOT)}")
    return errors


def default_files():
    files = [os.path.join(ROOT, name) for name in ("README.md", "CONTRIBUTING.md", "ARCHITECTURE.md")]
    docs = os.path.join(ROOT, "docs")
    if os.path.isdir(docs):
        files += sorted(os.path.join(docs, f) for f in os.listdir(docs) if f.endswith(".md"))
    return files


def self_test():
    import tempfile
    failures = []

    def expect(label, actual, expected):
        if actual != expected:
            failures.append(f"{label}: expected {expected!r}, got {actual!r}")

    expect("slug plain", slug("The layered database"), "the-layered-database")
    expect("slug code", slug("`dbgen update` and `DatabaseUpdater`"), "dbgen-update-and-databaseupdater")
    expect("slug punctuation", slug("Command plugins: `swift package dbgen` and more"), "command-plugins-swift-package-dbgen-and-more")
    expect("slug link", slug("See [the guide](x.md) now"), "see-the-guide-now")
    expect("slug unicode", slug("Réglages — ünïcode"), "réglages--ünïcode")
    expect("slug underscore", slug("`SHIPYARD_BUILD_*` settings"), "shipyard_build_-settings")
    expect("external ok", check_external("https://github.com/OWNER/Shipyard.git"), None)
    expect("external http", check_external("http://example.com") is not None, True)
    expect("external host", check_external("https://localhost/x") is not None, True)

    with tempfile.TemporaryDirectory() as directory:
        global ROOT
        saved, ROOT = ROOT, os.path.realpath(directory)
        try:
            os.makedirs(os.path.join(ROOT, "docs"))
            with open(os.path.join(ROOT, "docs", "B.md"), "w") as f:
                f.write("# B\n\n## Same\n\n## Same\n\n<a name=\"custom\"></a>\n")
            with open(os.path.join(ROOT, "A.md"), "w") as f:
                f.write("\n".join([
                    "# A",
                    "## Local heading",
                    "[ok](#local-heading) [ok](docs/B.md#same-1) [ok](docs/B.md#custom) [ok](docs/)",
                    "[bad anchor](#nowhere)",
                    "[missing](docs/C.md)",
                    "[bad remote anchor](docs/B.md#same-2)",
                    "`[not a link](nowhere.md)` and ![image](docs/B.md)",
                    "```",
                    "[not a link either](nowhere.md)",
                    "```",
                    "[ref]: docs/missing.md",
                    "<http://insecure.example.com>",
                    "[up](../outside.md)",
                ]) + "\n")
            errors = check_file(os.path.join(ROOT, "A.md"), {})
            lines = sorted(int(e.split(":")[1]) for e in errors)
            expect("errors found on lines", lines, [4, 5, 6, 11, 12, 13])
        finally:
            ROOT = saved

    for failure in failures:
        print(f"check-links: self-test FAIL: {failure}", file=sys.stderr)
    print(f"check-links: self-test {'failed' if failures else 'passed'}", file=sys.stderr)
    return 1 if failures else 0


def main(arguments):
    if arguments == ["--self-test"]:
        return self_test()
    files = [os.path.abspath(a) for a in arguments] or default_files()
    cache, errors, links = {}, [], 0
    for path in files:
        if not os.path.exists(path):
            errors.append(f"{path}: error: no such file")
            continue
        errors += check_file(path, cache)
        links += len(cache[os.path.abspath(path)][1])
    for error in errors:
        print(error, file=sys.stderr)
    print(f"check-links: {len(files)} files, {links} links, {len(errors)} broken", file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
