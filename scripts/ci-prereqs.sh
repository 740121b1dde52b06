#!/usr/bin/env bash
# Machine prerequisites of the integration tests that npm cannot install: Java 17+ and Maven (the Kafka broker of
# scripts/kafka), and kcat (the Kafka test's "client that is not ours"). Idempotent; needs root for apt-get.
# The Kafka test setup installs kcat itself when it runs as root, so this is optional in CI.
set -euo pipefail
missing=()
command -v kcat >/dev/null 2>&1 || missing+=(kcat)
command -v java >/dev/null 2>&1 || missing+=(openjdk-17-jre-headless)
command -v mvn >/dev/null 2>&1 || missing+=(maven)
if [ "${#missing[@]}" -eq 0 ]; then
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "ci-prereqs: missing ${missing[*]}; run as root or install them" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get install -y -q "${missing[@]}" >/dev/null 2>&1 || { apt-get update -q >/dev/null && apt-get install -y -q "${missing[@]}" >/dev/null; }
echo "ci-prereqs: installed ${missing[*]}" >&2
