#!/usr/bin/env bash
# A 30-second smoke run of every harness, for CI. Off unless RESUMETOOL_FUZZ=1, to keep CI short:
# .ci/run can call it unconditionally. Fails on the first harness that crashes, leaks, times out
# (1 s per input) or goes over 2 GiB; the input is left in FuzzTesting/FailCases/TARGET/.
set -euo pipefail
if [ "${RESUMETOOL_FUZZ:-0}" != 1 ]; then
    echo "fuzz smoke run skipped (set RESUMETOOL_FUZZ=1 to run it)"
    exit 0
fi
here="$(cd "$(dirname "$0")" && pwd)"
for target in FuzzXMLPlist FuzzBinaryPlist FuzzKeyedArchive FuzzRequestArchive FuzzResumeData; do
    echo "fuzz smoke run: $target, 30 s"
    "$here/run.sh" "$target" 30
done
