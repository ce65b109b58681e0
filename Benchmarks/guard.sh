#!/usr/bin/env bash
# Benchmark guard: the speed goals measured for an earlier build (BASE) and the current checkout
# (HEAD) in one run, the two builds taking turns in every round, and one table of medians and
# HEAD/BASE ratios. A row where HEAD is more than 5 % slower is flagged, and any flag makes the exit
# status 1 (GUARD_WARN_ONLY=1 or --warn-only: 0). See Benchmarks/README.md, "Benchmark guard".
#
#   Benchmarks/guard.sh [--warn-only] [BASE]
#
# BASE: a commit, tag or branch; by default the last release tag (`git describe --tags --abbrev=0`).
# BASE is built once, release, in a git worktree of its own under
# ${XDG_CACHE_HOME:-~/.cache}/resumetool-guard/<full sha>/ and reused while that holds its binary;
# HEAD is the working tree as it is (uncommitted changes included), built release here.
#
# Environment (defaults in brackets):
#   GUARD_ROUNDS [5]            rounds; each build runs every goal once per round
#   GUARD_THRESHOLD [5]         per cent HEAD may be slower before a row is flagged
#   GUARD_WARN_ONLY [0]         1: flagged rows are warnings, exit status 0
#   GUARD_ONLY [all]            comma-separated: download,connections,archive,inspect,tasks,upload
#   GUARD_DOWNLOAD_MIB [512]    https download size
#   GUARD_ARCHIVE_FILES [20000] files in the scanned .tar.gz
#   GUARD_BLOB_COPIES [500]     copies of each of the six samples given to inspect (3,000 blobs)
#   GUARD_LEDGER_ROWS [10000]   rows of the tasks ledger
#   GUARD_UPLOAD_MIB [512]      upload size
#   GUARD_NICE [10]             nice level of the two builds (the measurements run at normal priority)
#   GUARD_SHARED_BENCH [../shared/bench]  the acceptance scripts' folder (make_archives.py)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

usage() { echo "usage: Benchmarks/guard.sh [--warn-only] [BASE]  (BASE: a commit; default: the last release tag)" >&2; }
warn_only=${GUARD_WARN_ONLY:-0}
base=""
while (($#)); do
    case "$1" in
        --warn-only) warn_only=1 ;;
        -h|--help) sed -n '2,25p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        -*) usage; exit 64 ;;
        *) [[ -z "$base" ]] || { usage; exit 64; }; base="$1" ;;
    esac
    shift
done

missing=()
for tool in git swift python3 /usr/bin/time; do command -v "$tool" >/dev/null || missing+=("$tool"); done
if ((${#missing[@]})); then
    echo "guard.sh needs: ${missing[*]}" >&2
    exit 1
fi

if [[ -z "$base" ]]; then
    if ! base="$(git describe --tags --abbrev=0 2>/dev/null)"; then
        echo "guard.sh: this repository has no release tag; name the commit to compare with: Benchmarks/guard.sh COMMIT" >&2
        exit 64
    fi
    echo "BASE: the last release tag, $base" >&2
fi
if ! sha="$(git rev-parse --verify --quiet "$base^{commit}")"; then
    echo "guard.sh: $base is not a commit of this repository" >&2
    exit 64
fi

nice_level=${GUARD_NICE:-10}
cache="${XDG_CACHE_HOME:-$HOME/.cache}/resumetool-guard/$sha"
case "$cache/" in
    "$root"/*) echo "guard.sh: the cache ($cache) must lie outside the checkout" >&2; exit 64 ;;
esac

# BASE: its own worktree in the cache, built once. "binary" is written only after a build that
# succeeded, so an interrupted build is finished (incrementally) by the next run.
base_bin=""
if [[ -f "$cache/binary" ]] && [[ -x "$(cat "$cache/binary")" ]]; then
    base_bin="$(cat "$cache/binary")"
    echo "BASE ${sha:0:10}: reusing $base_bin" >&2
else
    mkdir -p "$cache"
    if [[ "$(git -C "$cache/src" rev-parse HEAD 2>/dev/null || true)" != "$sha" ]]; then
        rm -rf "$cache/src"
        git worktree prune
        git worktree add --detach "$cache/src" "$sha" >&2
    fi
    echo "BASE ${sha:0:10}: building (release) in $cache/src" >&2
    (cd "$cache/src" && nice -n "$nice_level" swift build -c release --product resumetool) >&2
    base_bin="$(cd "$cache/src" && swift build -c release --show-bin-path)/resumetool"
    [[ -x "$base_bin" ]] || { echo "guard.sh: no $base_bin after BASE's build" >&2; exit 1; }
    echo "$base_bin" > "$cache/binary"
fi

echo "HEAD: building (release) in $root" >&2
nice -n "$nice_level" swift build -c release --product resumetool >&2
head_bin="$(swift build -c release --show-bin-path)/resumetool"
head_label="$(git rev-parse --short=10 HEAD)"
[[ -z "$(git status --porcelain --untracked-files=no)" ]] || head_label+=" + uncommitted changes"

only=${GUARD_ONLY:-download,connections,archive,inspect,tasks,upload}
# An older build answers `upload --help` with the root's help (status 0): its usage line says.
has_upload() { "$1" upload --help 2>/dev/null | grep -E '^USAGE: [^[]* upload( |$)' >/dev/null; }
upload_server=()
if [[ ",$only," == *,upload,* ]] && has_upload "$base_bin" && has_upload "$head_bin"; then
    # The upload goal's server, built from this checkout (the same server for both builds).
    echo "upload server: building UploadBenchServer (release)" >&2
    if nice -n "$nice_level" swift build -c release --package-path Benchmarks --product UploadBenchServer >&2; then
        upload_server=(--upload-server "$(swift build -c release --package-path Benchmarks --show-bin-path)/UploadBenchServer")
    else
        echo "upload server: the build failed; the upload rows are skipped" >&2
    fi
fi

# Everything the run writes lies in one folder on /dev/shm (tmpfs: the disk taken out), removed
# on exit; the servers (nginx, UploadBenchServer, both on 127.0.0.1) are stopped by guard.py and,
# should it be killed, by this trap (guard.py writes their process ids to $work/pids).
shm=/dev/shm; [[ -d "$shm" && -w "$shm" ]] || shm="${TMPDIR:-/tmp}"
work="$(mktemp -d "$shm/resumetool-guard.XXXXXX")"
chmod 755 "$work"  # nginx workers run as nobody when started by root
guard_pid=""
cleanup() {
    if [[ -n "$guard_pid" ]]; then
        # guard.py leads a process group of its own (setsid): it, the run being timed and the
        # servers all get the signal; guard.py stops its servers on the way out.
        kill -TERM -- "-$guard_pid" 2>/dev/null || kill -TERM "$guard_pid" 2>/dev/null || true
        wait "$guard_pid" 2>/dev/null || true
    fi
    if [[ -f "$work/pids" ]]; then
        while read -r pid; do kill -QUIT "$pid" 2>/dev/null || true; done < "$work/pids"
        sleep 0.2
        while read -r pid; do kill -KILL "$pid" 2>/dev/null || true; done < "$work/pids"
    fi
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM HUP

flags=()
[[ "$warn_only" == 1 ]] && flags+=(--warn-only)
status=0
setsid=(); command -v setsid >/dev/null && setsid=(setsid -w)
TMPDIR="$work" ${setsid[@]+"${setsid[@]}"} python3 Benchmarks/guard.py --base "$base_bin" --head "$head_bin" \
    --base-label "BASE ${sha:0:10} ($base)" --head-label "HEAD $head_label" --work "$work" \
    --rounds "${GUARD_ROUNDS:-5}" --threshold "${GUARD_THRESHOLD:-5}" --only "$only" \
    --download-mib "${GUARD_DOWNLOAD_MIB:-512}" --archive-files "${GUARD_ARCHIVE_FILES:-20000}" \
    --blob-copies "${GUARD_BLOB_COPIES:-500}" --ledger-rows "${GUARD_LEDGER_ROWS:-10000}" \
    --upload-mib "${GUARD_UPLOAD_MIB:-512}" --shared-bench "${GUARD_SHARED_BENCH:-$root/../shared/bench}" \
    ${upload_server[@]+"${upload_server[@]}"} ${flags[@]+"${flags[@]}"} &
guard_pid=$!
wait "$guard_pid" || status=$?
guard_pid=""
exit "$status"
