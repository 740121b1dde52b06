#!/usr/bin/env bash
# Whether the Studio build (studio/dist) must be made again: exit 0 and say why when it is missing, or when a file it
# is built from (studio/ outside dist, the lockfile, the engine's expression lexer and parser that the Studio's
# editor imports) is newer than studio/dist/index.html; exit 1 when it is up to date. Used by `./dev start`.
# Optional argument: the checkout to look at (default: this one).
set -euo pipefail
cd "${1:-$(dirname "$0")/..}"
index=studio/dist/index.html
if [ ! -f "$index" ]; then
  echo "studio/dist is missing"
  exit 0
fi
sources=(studio package-lock.json)
[ -d src/engine/expression ] && sources+=(src/engine/expression)
# The designer's operator table comes from the rules' own (src/rules/operators.ts).
[ -f src/rules/operators.ts ] && sources+=(src/rules/operators.ts)
newer=$(find "${sources[@]}" -path studio/dist -prune -o -type f -newer "$index" -print -quit)
if [ -n "$newer" ]; then
  echo "$newer is newer than the build"
  exit 0
fi
exit 1
