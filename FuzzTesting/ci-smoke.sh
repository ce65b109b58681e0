#!/usr/bin/env bash
# A smoke run of every harness, for CI: each harness in FuzzTesting/Sources (all of them, found
# there, so a new one cannot be left out) for RESUMETOOL_FUZZ_SECONDS (default 15, at least 10).
# Off unless RESUMETOOL_FUZZ=1 (.ci/run sets it). Fails on the first harness that crashes, leaks,
# times out (1 s per input) or goes over 2 GiB (the input is left in FuzzTesting/FailCases/TARGET/),
# on a harness that executed no input, and when fewer harnesses ran than exist.
# The harnesses build once, together, before the first run. CI builds them in debug
# (RESUMETOOL_FUZZ_CONFIGURATION=debug, still libFuzzer + AddressSanitizer): a release build of
# all ten takes the 2-core CI machine too long; long campaigns use run.sh's release default.
set -euo pipefail
if [ "${RESUMETOOL_FUZZ:-0}" != 1 ]; then
    echo "fuzz smoke run skipped (set RESUMETOOL_FUZZ=1 to run it)"
    exit 0
fi
here="$(cd "$(dirname "$0")" && pwd)"
seconds="${RESUMETOOL_FUZZ_SECONDS:-15}"
if ! [[ "$seconds" =~ ^[0-9]+$ ]] || [ "$seconds" -lt 10 ]; then
    echo "fuzz smoke run: RESUMETOOL_FUZZ_SECONDS must be a whole number of at least 10, not '$seconds'" >&2
    exit 64
fi
export RESUMETOOL_FUZZ_CONFIGURATION="${RESUMETOOL_FUZZ_CONFIGURATION:-debug}"

targets=()
for folder in "$here"/Sources/Fuzz*/; do
    name="$(basename "$folder")"
    [ "$name" = FuzzCommon ] || targets+=("$name")
done
if [ "${#targets[@]}" -lt 10 ]; then
    echo "fuzz smoke run: found ${#targets[@]} harnesses in $here/Sources, expected at least 10" >&2
    exit 1
fi

started=$SECONDS
"$here/run.sh" --build-only
echo "fuzz smoke run: built ${#targets[@]} harnesses ($RESUMETOOL_FUZZ_CONFIGURATION) in $((SECONDS - started)) s"

log="$(mktemp)"
trap 'rm -f "$log"' EXIT
ran=0
for target in "${targets[@]}"; do
    echo "fuzz smoke run: $target, $seconds s"
    set +e
    RESUMETOOL_FUZZ_SKIP_BUILD=1 "$here/run.sh" "$target" "$seconds" >"$log" 2>&1
    status=$?
    set -e
    grep -E '^(INFO: Seed|#[0-9]+ +DONE|Done [0-9]|stat::number_of_executed_units|stat::peak_rss_mb)' "$log" || true
    if [ "$status" -ne 0 ]; then
        tail -n 60 "$log"
        echo "fuzz smoke run: $target failed (exit $status); its input is in FuzzTesting/FailCases/$target/" >&2
        exit 1
    fi
    executed="$(sed -n 's/^stat::number_of_executed_units: *\([0-9]*\).*/\1/p' "$log" | tail -n 1)"
    if [ -z "$executed" ] || [ "$executed" -eq 0 ]; then
        tail -n 30 "$log"
        echo "fuzz smoke run: $target executed no input" >&2
        exit 1
    fi
    ran=$((ran + 1))
done
echo "fuzz smoke run: $ran of ${#targets[@]} harnesses run, $seconds s each, none failed ($((SECONDS - started)) s with the build)"
