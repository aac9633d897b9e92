#!/usr/bin/env bash
# The release machine's side of FeedExample: a signing key, a new feed, and two releases of the
# shipped data, each built by dbgen from its schema script and CSV and published to the feed.
#
# usage: Examples/Feed/publish.sh DBGEN OUT
#   DBGEN  the dbgen to run (`swift build --product dbgen` at the repository's top, then
#          `$(swift build --show-bin-path)/dbgen`)
#   OUT    receives release.key (the private key: in real life a CI secret, never committed),
#          food-v1.sqlite and food-v2.sqlite, and feed/ (what a web server serves as it is;
#          feed/root.json is what the app bundles)
set -euo pipefail
dbgen=$1
out=$2
here="$(cd "$(dirname "$0")" && pwd)"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
rm -rf "$out/feed" "$out/release.key"

"$dbgen" keys generate --out "$out/release.key"                # prints the public key
"$dbgen" feed init "$out/feed" --key "$out/release.key"        # feed/root.json: the app bundles a copy

# Release 1 is what the app bundles (DBGenBuildToolPlugin builds the same bytes from the same
# inputs); release 2 is the next version of the script and its CSV.
(cd "$here/../Sources/FeedExample/Data" && "$dbgen" food.dbgen.txt -o "$out/food-v1.sqlite" --force --quiet)
(cd "$here/release-2" && "$dbgen" food.dbgen.txt -o "$out/food-v2.sqlite" --force --quiet)
"$dbgen" publish "$out/feed" "$out/food-v1.sqlite" --key "$out/release.key"
"$dbgen" publish "$out/feed" "$out/food-v2.sqlite" --key - < "$out/release.key"   # the key on stdin works too

# What a device will check, before anything is uploaded.
"$dbgen" feed verify "$out/feed" --root "$out/feed/root.json"
