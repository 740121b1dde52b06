#!/usr/bin/env bash
# `npm run checks`, the first step of `npm test`: the typecheck and the lint side by side. Each is mostly one
# core's work, so on a machine of two or more cores the pair takes about as long as the slower one.
set -uo pipefail
cd "$(dirname "$0")/.."
npm run --silent typecheck &
typecheck=$!
npm run --silent lint
lint=$?
wait "$typecheck"
typecheck=$?
[ "$typecheck" -eq 0 ] || echo "checks: the typecheck failed (above)" >&2
[ "$lint" -eq 0 ] || echo "checks: the lint failed (above)" >&2
[ "$typecheck" -eq 0 ] && [ "$lint" -eq 0 ]
