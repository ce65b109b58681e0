#!/usr/bin/env bash
# Builds the benchmark in release mode and runs it; arguments go to PlistBenchmark
# (e.g. --quick, --runs 7, --only large-xml-decode, --no-memory). Tables go to standard
# output, progress to standard error.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --package-path Benchmarks >&2
exec Benchmarks/.build/release/PlistBenchmark "$@"
