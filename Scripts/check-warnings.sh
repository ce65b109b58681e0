#!/usr/bin/env bash
# CI's gate on compiler warnings: builds the package and its tests (in a fresh clone every file
# is compiled, so every warning is printed) and fails on any warning in this package's own code
# (Sources/, Tests/); the dependencies' warnings are theirs. Later steps reuse the build.
set -euo pipefail
cd "$(dirname "$0")/.."
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
if ! swift build --build-tests > "$log" 2>&1; then
    tail -n 60 "$log" >&2
    exit 1
fi
own="$(grep -E "^$PWD/(Sources|Tests)/[^:]+:[0-9]+:[0-9]+: warning:" "$log" | sort -u || true)"
if [ -n "$own" ]; then
    echo "check-warnings: the build warns in this package's own code:" >&2
    echo "$own" >&2
    exit 1
fi
echo "check-warnings: no warning in Sources/ or Tests/"
