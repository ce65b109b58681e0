#!/usr/bin/env bash
# Every benchmark of issue 7 in one command, then one table of medians and ratios.
#
#   Benchmarks/compare.sh            # full: 5 runs each, 10,000 blobs, transfers of 1 GiB (disk), 512 MiB (tmpfs, http and https) and 96 MiB (capped, http and https)
#   Benchmarks/compare.sh --quick    # smoke test: 1 run, 200 blobs, 64 MiB transfer, small plists
#
# Parts: inspect and start-up (Benchmarks/inspect_bench.py), in-process plist decode/encode
# (PlistBenchmark, see run.sh), transfer (Benchmarks/transfer.sh), and the acceptance scripts
# (../shared/bench/scale.sh, not with --quick, and inspect.sh; SHARED_BENCH names another folder). Each prints its own tables;
# the summary at the end collects the headline figures. Needs nginx-light, curl, wget, aria2,
# libplist-utils, python3, strace, time and openssl (the Debian packages). Temporary files go to a fresh
# folder under /tmp, removed at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=5 blobs=10000 size_mib=1024 tmpfs_mib=512 capped_mib=96 plist=() startup_runs=41
if [[ "${1:-}" == "--quick" ]]; then
    runs=1 blobs=200 size_mib=64 tmpfs_mib=64 capped_mib=32 plist=(--quick) startup_runs=5
elif [[ $# -gt 0 ]]; then
    echo "usage: Benchmarks/compare.sh [--quick]" >&2
    exit 64
fi
missing=()
for tool in /usr/sbin/nginx curl wget aria2c plistutil python3 strace /usr/bin/time xargs openssl; do
    command -v "$tool" >/dev/null || missing+=("$tool")
done
if ((${#missing[@]})); then
    echo "compare.sh needs: ${missing[*]}" >&2
    echo "  apt-get install -y nginx-light curl wget aria2 libplist-utils python3 strace time openssl" >&2
    exit 1
fi

swift build -c release --product resumetool >&2
swift build -c release --package-path Benchmarks >&2
resumetool="$(swift build -c release --show-bin-path)/resumetool"
benchmark=Benchmarks/.build/release/PlistBenchmark

work="$(mktemp -d /tmp/compare-bench.XXXXXX)"
chmod 755 "$work"  # nginx workers run as nobody and must reach the served file
trap 'rm -rf "$work"' EXIT
summary="$work/summary.jsonl"
{
    echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), $(free -g | awk '/Mem:/ {print $2}') GiB, $(uname -sr)"
    echo "load before: $(uptime | sed 's/.*load average: //')"
} >&2

"$benchmark" --generate-blobs "$work/blobs" --count "$blobs"
python3 Benchmarks/inspect_bench.py --resumetool "$resumetool" --blobs "$work/blobs" \
    --runs "$runs" --startup-runs "$startup_runs" --summary "$summary"
rm -rf "$work/blobs"

"$benchmark" --runs "$runs" ${plist[@]+"${plist[@]}"} | tee "$work/plist.md"

# Issue 13's three transfer goals, each its own alternating run of every tool: the engine alone
# (tmpfs, 512 MiB: at most 0.67x curl's time), the real disk durable (at most 0.8x the time of
# curl -o F && sync F, plus the continue case), and nginx capping each connection at 16 MiB/s
# (96 MiB: --connections 4 at most 0.30x curl's time since issue 37, aria2c -x4 beside it).
python3 Benchmarks/transfer/transfer.py --resumetool "$resumetool" --runs "$runs" --size-mib "$tmpfs_mib" \
    --scenario tmpfs --skip-continue --only resumetool --only curl --only wget --only aria2c --summary "$summary"
python3 Benchmarks/transfer/transfer.py --resumetool "$resumetool" --runs "$runs" --size-mib "$size_mib" \
    --scenario disk --work "$work/transfer" --only resumetool --only curl --only "curl + fsync" --only wget \
    --only aria2c --summary "$summary"
python3 Benchmarks/transfer/transfer.py --resumetool "$resumetool" --runs "$runs" --size-mib "$capped_mib" \
    --scenario capped --summary "$summary"
# Issue 24: the same over https (nginx with a CA made for the run, passed to every tool): the
# engine alone on tmpfs (at most 0.8x curl's time and 1.3x its CPU; curl --http1.1, wget and
# aria2c beside it), and --connections 4 against the capped server.
python3 Benchmarks/transfer/transfer.py --resumetool "$resumetool" --runs "$runs" --size-mib "$tmpfs_mib" \
    --scenario https-tmpfs --summary "$summary"
python3 Benchmarks/transfer/transfer.py --resumetool "$resumetool" --runs "$runs" --size-mib "$capped_mib" \
    --scenario https-capped --summary "$summary"
# Issue 37: --connections 4 on the direct path where it cannot help (no cap, tmpfs): at most 1.15x
# one connection's user+sys CPU, http and https. (The capped goals above are 0.30x curl's time.)
python3 Benchmarks/transfer/transfer.py --resumetool "$resumetool" --runs "$runs" --size-mib "$tmpfs_mib" \
    --scenario connections-tmpfs --summary "$summary"
python3 Benchmarks/transfer/transfer.py --resumetool "$resumetool" --runs "$runs" --size-mib "$tmpfs_mib" \
    --scenario https-connections-tmpfs --summary "$summary"

# Issue 25: a 50,000-file iTunes/Finder backup, plain and encrypted (its own table).
python3 Benchmarks/backup_bench.py --binary "$resumetool" --runs "$runs" --files "$([[ $blobs -lt 10000 ]] && echo 5000 || echo 50000)"

# The acceptance scripts decide the speed goals, and they set the goals up otherwise than the
# scenarios above (nginx with 2 workers, HTTP/1.1 only, an RSA certificate; CPU against
# curl --http1.1; another archive and other blobs; see RESULTS.md, "Why compare.sh and the
# acceptance scripts differ"): run as they are, with this build, beside the rows above.
shared="${SHARED_BENCH:-../shared/bench}"
if [[ -x "$shared/scale.sh" && -x "$shared/inspect.sh" ]]; then
    if [[ -z "${plist[*]:-}" ]]; then
        "$shared/scale.sh" "$resumetool" || echo "scale.sh: a goal missed (exit status $?)"
    fi
    "$shared/inspect.sh" "$resumetool" || echo "inspect.sh: the goal missed (exit status $?)"
else
    echo "acceptance scripts not found in $shared (set SHARED_BENCH): their goals are not measured" >&2
fi

echo "load after: $(uptime | sed 's/.*load average: //')" >&2
python3 Benchmarks/summary.py "$summary" "$work/plist.md"
