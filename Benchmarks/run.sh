#!/usr/bin/env bash
# Builds the benchmark in release mode and runs it; arguments go to PlistBenchmark
# (e.g. --quick, --runs 7, --only large-xml-decode, --no-memory).
set -euo pipefail
cd "$(dirname "$0")"
swift build -c release --package-path . >&2
exec .build/release/PlistBenchmark "$@"
