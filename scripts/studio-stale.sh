#!/usr/bin/env bash
# Whether the Studio build (studio/dist) must be made again: exit 0 and say why when it is missing, or when a file it
# is built from (studio/ outside dist, the lockfile, the engine and rule modules the Studio imports) is newer than
# studio/dist/index.html; exit 1 when it is up to date. Used by `./dev start`.
# Optional argument: the checkout to look at (default: this one).
set -euo pipefail
cd "${1:-$(dirname "$0")/..}"
index=studio/dist/index.html
if [ ! -f "$index" ]; then
  echo "studio/dist is missing"
  exit 0
fi
sources=(studio package-lock.json)
# The designer's expression editor imports the engine's lexer and parser, its operator table comes from
# src/rules/operators.ts, and the Analysis tab runs the engine's validation, table compiler and analysis.
[ -d src/engine ] && sources+=(src/engine)
[ -d src/rules ] && sources+=(src/rules)
newer=$(find "${sources[@]}" -path studio/dist -prune -o -type f -newer "$index" -print -quit)
if [ -n "$newer" ]; then
  echo "$newer is newer than the build"
  exit 0
fi
exit 1
