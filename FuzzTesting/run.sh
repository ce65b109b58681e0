#!/usr/bin/env bash
# Builds the harnesses (release, libFuzzer + AddressSanitizer) and fuzzes one of them.
#   FuzzTesting/run.sh TARGET SECONDS [extra libFuzzer flags...]
#   FuzzTesting/run.sh --build-only        # every harness, one build (ci-smoke.sh)
#   FuzzTesting/run.sh --bin-path          # the folder the harnesses are built in
# TARGET: FuzzXMLPlist FuzzBinaryPlist FuzzKeyedArchive FuzzRequestArchive FuzzResumeData FuzzRenderers FuzzHTTPAnswers FuzzDirectHead FuzzLedgerRow FuzzUploadAnswers
# The working corpus grows in FuzzTesting/Corpus/TARGET (ignored by git), seeded from Samples/
# and the test fixtures; crashing inputs land in FuzzTesting/FailCases/TARGET/.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"
targets=(FuzzXMLPlist FuzzBinaryPlist FuzzKeyedArchive FuzzRequestArchive FuzzResumeData FuzzRenderers FuzzHTTPAnswers FuzzDirectHead FuzzLedgerRow FuzzUploadAnswers)

if { [ "${1:-}" = --build-only ] || [ "${1:-}" = --bin-path ]; } && [ "$#" -eq 1 ]; then
    target=""
elif [ "$#" -lt 2 ] || [[ ! " ${targets[*]} " == *" $1 "* ]] || ! [[ "$2" =~ ^[0-9]+$ ]]; then
    echo "usage: $0 TARGET SECONDS [libFuzzer flags...]" >&2
    echo "       $0 --build-only | --bin-path" >&2
    echo "TARGET: ${targets[*]}" >&2
    exit 64
fi
mode="${1:-}"
if [ "$mode" = --build-only ] || [ "$mode" = --bin-path ]; then
    shift
else
    target="$1"
    seconds="$2"
    shift 2
fi

cd "$here"
# SwiftPM passes `-sanitize=fuzzer -sanitize=address` to swiftc as two flags, and Swift 6.3's
# driver keeps only the last one: Swift code got AddressSanitizer but no coverage, so libFuzzer
# saw only the C shim. One combined flag, given last, restores coverage instrumentation.
# RESUMETOOL_FUZZ_CONFIGURATION=debug builds faster and fuzzes slower (ci-smoke.sh's choice).
configuration="${RESUMETOOL_FUZZ_CONFIGURATION:-release}"
case "$configuration" in
    release | debug) ;;
    *) echo "RESUMETOOL_FUZZ_CONFIGURATION must be release or debug" >&2; exit 64 ;;
esac
build=(-c "$configuration" --sanitize=fuzzer --sanitize=address -Xswiftc -sanitize=fuzzer,address)
# Swift 6.3.1's SwiftPM kept using its cached build plan after files were added to the root
# package (this package's path dependency), so the new files were never compiled and the build
# failed. Dropping the plan makes SwiftPM rescan the sources; compiled objects are kept.
if [ "$mode" = --bin-path ]; then
    swift build "${build[@]}" --show-bin-path
    exit 0
fi
if [ -z "$target" ]; then
    # Every harness in one build (ci-smoke.sh): the shared dependencies compile once.
    rm -f .build/*/"$configuration"/description.json
    swift build "${build[@]}"
    exit 0
fi
if [ "${RESUMETOOL_FUZZ_SKIP_BUILD:-0}" != 1 ]; then
    rm -f .build/*/"$configuration"/description.json
    swift build "${build[@]}" --product "$target"
fi
# ci-smoke.sh runs harnesses side by side and asks for the folder once: SwiftPM holds a lock on
# .build that would make concurrent asks wait in turn.
binary="${RESUMETOOL_FUZZ_BIN_PATH:-$(swift build "${build[@]}" --show-bin-path)}/$target"

corpus="$here/Corpus/$target"
if [ ! -d "$corpus" ]; then
    mkdir -p "$corpus"
    # Every sample and fixture seeds every harness: each reader must also refuse the others' input.
    find "$root/Samples" "$root/Tests/ResumeDataCodecTests/Fixtures" -type f \
        ! -name '*.md' ! -name '*.txt' -exec cp {} "$corpus/" \;
    if [ "$target" = FuzzRequestArchive ] || [ "$target" = FuzzKeyedArchive ]; then
        # The request archives inside the resume samples are the best seeds for these two.
        python3 - "$root/Samples" "$corpus" <<'PY'
import pathlib, plistlib, sys
samples, out = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
for path in sorted(samples.iterdir()):
    try:
        top = plistlib.loads(path.read_bytes())
    except Exception:
        continue
    if not isinstance(top, dict):
        continue
    for key in ("NSURLSessionResumeCurrentRequest", "NSURLSessionResumeOriginalRequest"):
        if isinstance(top.get(key), bytes):
            (out / f"{path.stem}-{key}.bplist").write_bytes(top[key])
PY
    fi
fi

artifacts="$here/FailCases/$target"
mkdir -p "$artifacts"
dict=()
case "$target" in
    FuzzXMLPlist) dict=("-dict=$here/FuzzXMLPlist.dict") ;;
    # The archive keys serve every harness that decodes keyed archives.
    FuzzKeyedArchive | FuzzRequestArchive | FuzzResumeData | FuzzLedgerRow) dict=("-dict=$here/archive-keys.dict") ;;
esac

exec "$binary" "$corpus" \
    -rss_limit_mb=2048 -timeout=1 -max_total_time="$seconds" \
    -artifact_prefix="$artifacts/" -print_final_stats=1 \
    ${dict[@]+"${dict[@]}"} "$@"
