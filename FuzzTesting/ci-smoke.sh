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

# The harnesses run side by side, as many at once as there are cores: each is one process on
# one core, and on CI's two cores this halves the step.
jobs="$(nproc 2>/dev/null || echo 1)"
[ "$jobs" -ge 1 ] || jobs=1
logs="$(mktemp -d)"
trap 'rm -rf "$logs"' EXIT
export RESUMETOOL_FUZZ_SKIP_BUILD=1
RESUMETOOL_FUZZ_BIN_PATH="$("$here/run.sh" --bin-path)"
export RESUMETOOL_FUZZ_BIN_PATH

# Checks one finished harness's log and status; exits the script on a failure.
check() {
    local target="$1" status="$2" log="$logs/$1.log"
    echo "fuzz smoke run: $target, $seconds s"
    grep -E '^(INFO: Seed|#[0-9]+ +DONE|Done [0-9]|stat::number_of_executed_units|stat::peak_rss_mb)' "$log" || true
    if [ "$status" -ne 0 ]; then
        tail -n 60 "$log"
        echo "fuzz smoke run: $target failed (exit $status); its input is in FuzzTesting/FailCases/$target/" >&2
        exit 1
    fi
    local executed
    executed="$(sed -n 's/^stat::number_of_executed_units: *\([0-9]*\).*/\1/p' "$log" | tail -n 1)"
    if [ -z "$executed" ] || [ "$executed" -eq 0 ]; then
        tail -n 30 "$log"
        echo "fuzz smoke run: $target executed no input" >&2
        exit 1
    fi
}

ran=0
index=0
while [ "$index" -lt "${#targets[@]}" ]; do
    batch=("${targets[@]:index:jobs}")
    pids=()
    for target in "${batch[@]}"; do
        "$here/run.sh" "$target" "$seconds" >"$logs/$target.log" 2>&1 &
        pids+=("$!")
    done
    for position in "${!batch[@]}"; do
        set +e
        wait "${pids[$position]}"
        status=$?
        set -e
        check "${batch[$position]}" "$status"
        ran=$((ran + 1))
    done
    index=$((index + jobs))
done
echo "fuzz smoke run: $ran of ${#targets[@]} harnesses run, $seconds s each, $jobs at once, none failed ($((SECONDS - started)) s with the build)"
