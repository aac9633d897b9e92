#!/usr/bin/env bash
# Installs `dbgen` and `versionstamp` as commands: the binaries (built in release mode, with the
# Swift runtime linked statically on Linux), their man pages (swift-argument-parser's
# generate-manual plugin) and shell completions for bash, zsh and fish.
#
#   scripts/install.sh [--prefix PREFIX] [--no-man] [--configuration debug|release]
#
#   PREFIX/bin/dbgen, PREFIX/bin/versionstamp
#   PREFIX/share/man/man1/dbgen.1, versionstamp.1
#   PREFIX/share/bash-completion/completions/{dbgen,versionstamp}
#   PREFIX/share/zsh/site-functions/{_dbgen,_versionstamp}
#   PREFIX/share/fish/vendor_completions.d/{dbgen,versionstamp}.fish
#
# PREFIX defaults to $PREFIX, else /usr/local; $DESTDIR, when set, is prepended to every
# installed path (for packagers). The commands still need the C libraries at run time:
# libsqlite3 and zlib (dbgen), libgit2 and libxml2 (versionstamp) — README, "Install".
# --configuration (default release): CI passes `debug` to reuse its test build (then the
# commands load the toolchain's Swift runtime: a debug build cannot link it statically).
# Run from anywhere; needs swift, and write access to PREFIX.
set -euo pipefail
cd "$(dirname "$0")/.."

prefix=${PREFIX:-/usr/local}
man=yes
configuration=release
while [ $# -gt 0 ]; do
  case "$1" in
    --prefix) prefix=$2; shift 2 ;;
    --prefix=*) prefix=${1#--prefix=}; shift ;;
    --no-man) man=no; shift ;;
    --configuration|-c) configuration=$2; shift 2 ;;
    -h|--help) sed -n '2,19p' "$0"; exit 0 ;;
    *) echo "install: unknown argument $1" >&2; exit 64 ;;
  esac
done
root="${DESTDIR:-}$prefix"
tools=(dbgen versionstamp)
say() { printf 'install: %s\n' "$*" >&2; }

build_flags=(-c "$configuration")
if [ "$(uname -s)" = Linux ] && [ "$configuration" = release ]; then build_flags+=(--static-swift-stdlib); fi
for tool in "${tools[@]}"; do
  swift build "${build_flags[@]}" --product "$tool" >&2
done
bin_path=$(swift build "${build_flags[@]}" --show-bin-path)

mkdir -p "$root/bin" "$root/share/bash-completion/completions" "$root/share/zsh/site-functions" \
         "$root/share/fish/vendor_completions.d"
for tool in "${tools[@]}"; do
  install -m 0755 "$bin_path/$tool" "$root/bin/$tool"
  "$root/bin/$tool" --generate-completion-script bash > "$root/share/bash-completion/completions/$tool"
  "$root/bin/$tool" --generate-completion-script zsh > "$root/share/zsh/site-functions/_$tool"
  "$root/bin/$tool" --generate-completion-script fish > "$root/share/fish/vendor_completions.d/$tool.fish"
  say "$root/bin/$tool ($("$root/bin/$tool" --version)) and its bash, zsh and fish completions"
done

if [ "$man" = yes ]; then
  # The plugin builds the package (debug: the pages do not depend on the configuration, and a
  # debug build is usually there already) and writes one page per tool into its work directory.
  swift package plugin generate-manual --configuration debug >&2
  mkdir -p "$root/share/man/man1"
  for tool in "${tools[@]}"; do
    page=$(find .build/plugins/GenerateManual/outputs -name "$tool.1" | head -n 1)
    [ -n "$page" ] || { say "generate-manual wrote no $tool.1"; exit 1; }
    # mdoc has no empty input line (man prints "mdoc warning: Empty input line" for each): a
    # blank line of a help text becomes a paragraph break (.Pp), dropped where a macro beside
    # it already breaks the text, so `groff -mandoc -ww -z` finds nothing to say.
    awk '
      /^[[:space:]]*$/ { blank = 1; next }
      {
        breaks = "^\\.(Sh|Ss|Pp|Bl|El|It)( |$)"
        if (blank && printed && prev !~ breaks && $0 !~ breaks) print ".Pp"
        blank = 0; printed = 1; prev = $0; print
      }' "$page" > "$root/share/man/man1/$tool.1"
    chmod 0644 "$root/share/man/man1/$tool.1"
    say "$root/share/man/man1/$tool.1"
  done
fi
