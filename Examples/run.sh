#!/usr/bin/env bash
# Builds the examples and runs each as the README promises, against the package's own samples
# and a local server: read a blob, rebuild one, read a task ledger, and a download killed with -9
# then continued to the same bytes. CI runs it; any failure fails the run.
set -euo pipefail
cd "$(dirname "$0")"
# Built in the package's own build folder: every module the examples need is one the package's
# build already made, with the same commands, so after `swift build` at the top this builds only
# the four programs (14 s, against 290 s in a folder of their own on two cores), and the
# package's build stays up to date. The two resolve the same versions: the examples add no
# dependency of their own.
scratch=(--scratch-path ../.build)
swift build -q "${scratch[@]}"
bin="$(swift build "${scratch[@]}" --show-bin-path)"
work="$(mktemp -d)"
server=""
cleanup() {
    [ -z "$server" ] || kill "$server" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "examples: $*" >&2; exit 1; }

# Read a blob.
"$bin/ReadBlob" ../Samples/ios12-keyed-archive.resumedata > "$work/read.txt"
grep -q '^container:      keyed-archive$' "$work/read.txt" || fail "ReadBlob: $(cat "$work/read.txt")"

# Rebuild one from a partial file; the tool reads it back.
"$bin/RebuildBlob" ../Samples/CFNetworkDownload_Occ2S2.tmp https://example.com/file.bin '"etag"' "$work/rebuilt.resumedata" > /dev/null
"$bin/ReadBlob" "$work/rebuilt.resumedata" | grep -q '^bytes received: 4096$' || fail "RebuildBlob's blob does not read back"

# Read a task ledger made as the tests make theirs (iOS 26's schema, the last rows in the WAL).
python3 ../Tests/LedgerFixtures/make_ledger.py "$work/device" --version 3
"$bin/ReadTaskLedger" "$work/device/private/var/mobile/Library/com.apple.nsurlsessiond/tasks.sqlite" "$work/device" > "$work/ledger.txt"
grep -q '^schema version: 3$' "$work/ledger.txt" || fail "ReadTaskLedger: $(cat "$work/ledger.txt")"
grep -q '^com.example.player download https://media.example.com/podcasts/episode-42.mp3: 4096 of 5182 bytes, partial file /' "$work/ledger.txt" \
    || fail "ReadTaskLedger: $(cat "$work/ledger.txt")"

# Download from a local server, killed with -9 part way, then continued to the same bytes.
mkdir "$work/site" "$work/out"
head -c $((48 << 20)) /dev/urandom > "$work/site/big.bin"
port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
# nginx serves ranges; python's http.server does not, and then the example starts over (also right).
python3 -m http.server "$port" --bind 127.0.0.1 --directory "$work/site" > /dev/null 2>&1 &
server=$!
for _ in $(seq 100); do curl -s -o /dev/null "http://127.0.0.1:$port/" && break; sleep 0.1; done
url="http://127.0.0.1:$port/big.bin"
# exec: the -9 must reach the program, not a subshell around it.
( cd "$work/out" && exec "$bin/DownloadAfterCrash" "$url" big.bin > /dev/null ) &
download=$!
for _ in $(seq 200); do [ -s "$work/out/big.bin.part" ] && break; sleep 0.01; done
kill -9 "$download" 2>/dev/null || true
wait "$download" 2>/dev/null || true
( cd "$work/out" && "$bin/DownloadAfterCrash" "$url" big.bin > "$work/again.log" 2>&1 ) || fail "DownloadAfterCrash: $(tail -n 3 "$work/again.log")"
tail -n 1 "$work/again.log" > "$work/again.txt"
grep -qx 'big.bin: done' "$work/again.txt" || fail "DownloadAfterCrash: $(cat "$work/again.txt")"
cmp -s "$work/site/big.bin" "$work/out/big.bin" || fail "DownloadAfterCrash: the file differs"
[ ! -e "$work/out/big.bin.part" ] && [ ! -e "$work/out/big.bin.resume" ] || fail "DownloadAfterCrash left its checkpoint"
echo "examples: ok"
