#!/usr/bin/env bash
# Checks the GitHub Actions workflows with actionlint (and, through it, shellcheck on their
# `run:` scripts when shellcheck is installed): CI's own, and the ones the docs give users to
# copy (Examples/Feed/publish-feed.yml, the feed's CI recipe). They cannot run here, so this is
# what keeps a typo from shipping. First it proves the linter bites: a copy of ci.yml with a misspelt key
# must fail. scripts/setup.sh installs actionlint; exit 0 when every workflow passes.
set -euo pipefail
cd "$(dirname "$0")/.."

actionlint=$(command -v actionlint || true)
if [ -z "$actionlint" ]; then
  actionlint="$(python3 -c 'import sysconfig; print(sysconfig.get_path("scripts"))')/actionlint"
fi
[ -x "$actionlint" ] || { echo "check-workflows: no actionlint (scripts/setup.sh installs it)" >&2; exit 1; }

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
sed 's/^    runs-on:/    runs-onn:/' .github/workflows/ci.yml > "$scratch/typo.yml"
cmp -s .github/workflows/ci.yml "$scratch/typo.yml" && { echo "check-workflows: could not plant the typo" >&2; exit 1; }
if "$actionlint" "$scratch/typo.yml" >/dev/null 2>&1; then
  echo "check-workflows: actionlint passed a workflow with a misspelt key: it checks nothing" >&2
  exit 1
fi

workflows=(.github/workflows/*.yml Examples/Feed/*.yml)
"$actionlint" "${workflows[@]}"
echo "check-workflows: ${#workflows[@]} workflow(s) pass actionlint ($("$actionlint" --version | head -n 1))"
