#!/usr/bin/env bash
# run_scan_cores.sh BUNDLE REPO [ROUNDS]: issue 37's scan checks on a many-core machine, from the unpacked
# bundle (make_bundle.sh) and a checkout of the project (its generators): `resumetool scan --json` of
#   tree     gen_tree.py's 100,000-file folder tree on tmpfs
#   targz    make_extraction.py's 100,000-file .tar.gz (and `tar -xzf` of it into tmpfs, where tar is there)
#   backup   make_backup.py's 50,000-file encrypted backup (needs Python's cryptography: wheels in
#            REPO/.bench/whl are installed into /tmp/site first when it is missing), and a 7-file one
#            with the same key derivation counts, to tell the derivation (serial) from the rest
# each pinned to 2 CPUs (taskset -c 0,1) and on all of them, alternating, ROUNDS rounds; wall, user+sys.
# Goal (issue 37): the tree and the backup >= 4x faster on 16 cores than on 2.
set -u
B=$(cd "$1" && pwd); R=$(cd "$2" && pwd); rounds=${3:-5}; only=${ONLY:-tree targz backup}
LD="$B/lib/ld-linux-x86-64.so.2 --library-path $B/lib"
# RT: another build of resumetool to time instead of the bundle's (a before/after pair in one call).
RT=${RT:-$B/bin/resumetool}
T=$(mktemp -d /dev/shm/scan.XXXXXX)
echo "machine: $(nproc) cpus, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
one() { local TIMEFORMAT='%R %U %S'; { time "$@" > "$T/out.json" 2>"$T/err"; } 2>&1; }
med() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
compare() {  # name, then the scan's arguments
  local name=$1; shift; local two="" all="" twocpu="" allcpu="" r line
  for r in $(seq "$rounds"); do
    if [ $((r % 2)) = 1 ]; then
      line=$(one $LD "$B/bin/taskset" -c 0,1 $LD "$RT" scan --json "$@"); two+="$(echo "$line" | cut -d' ' -f1) "; twocpu+="$(echo "$line" | awk '{print $2+$3}') "
      line=$(one $LD "$RT" scan --json "$@"); all+="$(echo "$line" | cut -d' ' -f1) "; allcpu+="$(echo "$line" | awk '{print $2+$3}') "
    else
      line=$(one $LD "$RT" scan --json "$@"); all+="$(echo "$line" | cut -d' ' -f1) "; allcpu+="$(echo "$line" | awk '{print $2+$3}') "
      line=$(one $LD "$B/bin/taskset" -c 0,1 $LD "$RT" scan --json "$@"); two+="$(echo "$line" | cut -d' ' -f1) "; twocpu+="$(echo "$line" | awk '{print $2+$3}') "
    fi
  done
  local m2 ma; m2=$(echo $two | tr ' ' '\n' | med); ma=$(echo $all | tr ' ' '\n' | med)
  printf '%-7s 2 cpus median %6.3f s (cpu %s) runs: %s\n' "$name" "$m2" "$(echo $twocpu | tr ' ' '\n' | med)" "$two"
  printf '%-7s all    median %6.3f s (cpu %s) runs: %s\n' "$name" "$ma" "$(echo $allcpu | tr ' ' '\n' | med)" "$all"
  printf '%-7s speed-up on all cpus: %.2fx   (%s)\n' "$name" "$(awk -v a="$m2" -v b="$ma" 'BEGIN{print a/b}')" "$(python3 -c "import json; d=json.load(open('$T/out.json')); print('blobs', len(d.get('blobs',[])), 'errors', len(d.get('errors',[])))" 2>&1)"
}
for what in $only; do case $what in
  tree)
    mkdir -p "$T/blobs" && cp "$R"/Samples/*.resumedata "$R"/Samples/ios*.plist "$T/blobs/"
    s=$(date +%s); python3 "$R/Benchmarks/device/gen_tree.py" "$T/tree" "${TREE_FILES:-100000}" "$T/blobs" >/dev/null
    echo "tree: ${TREE_FILES:-100000} files, $(du -sh "$T/tree" | cut -f1), made in $(( $(date +%s) - s )) s"
    compare tree "$T/tree"; rm -rf "$T/tree" ;;
  targz)
    s=$(date +%s); python3 "$R/Tests/ResumetoolTests/Backups/make_extraction.py" "$T/x" --no-tree --formats tar.gz --noise $(( ${TARGZ_FILES:-100000} - 11 )) >/dev/null
    echo "targz: $(ls -la "$T/x/extraction.tar.gz" | awk '{print $5}') bytes, made in $(( $(date +%s) - s )) s"
    compare targz "$T/x/extraction.tar.gz"
    if command -v tar >/dev/null; then
      u=""; for r in $(seq "$rounds"); do mkdir "$T/u"; u+="$(cd "$T/u" && TIMEFORMAT='%R'; { time tar --warning=no-unknown-keyword -xzf "$T/x/extraction.tar.gz"; } 2>&1) "; rm -rf "$T/u"; done
      echo "targz   tar -xzf into tmpfs median $(echo $u | tr ' ' '\n' | med) s runs: $u"
    fi
    rm -rf "$T/x" ;;
  backup)
    python3 -c 'import cryptography' 2>/dev/null || { python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site "$R"/.bench/whl/*.whl && export PYTHONPATH=/tmp/site; }
    s=$(date +%s); python3 "$R/Tests/ResumetoolTests/Backups/make_backup.py" "$T/bk" --noise $(( ${BACKUP_FILES:-50000} - 7 )) --password "benchmark password" >/dev/null || { echo "backup: could not be made"; continue; }
    echo "backup: ${BACKUP_FILES:-50000} files, encrypted, made in $(( $(date +%s) - s )) s"
    echo "benchmark password" > "$T/password"
    compare backup --password-file "$T/password" "$T/bk"; rm -rf "$T/bk"
    # The key derivation alone (PBKDF2, 10,000,000 + 10,000 rounds: one chain, serial by its
    # definition): a 7-file backup with the same counts.
    python3 "$R/Tests/ResumetoolTests/Backups/make_backup.py" "$T/tiny" --password "benchmark password" >/dev/null
    compare derive --password-file "$T/password" "$T/tiny"; rm -rf "$T/tiny" ;;
esac; done
rm -rf "$T"
