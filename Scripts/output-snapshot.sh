#!/usr/bin/env bash
# Records what a resumetool binary prints for every sample, fixture and fuzzing fail case, so that
# a refactoring can be shown to change no output, byte for byte:
#   Scripts/output-snapshot.sh OLD-BINARY /tmp/before
#   Scripts/output-snapshot.sh NEW-BINARY /tmp/after
#   diff -r /tmp/before /tmp/after
# Each file gets, per command, its standard output, standard error and exit status (converted
# blobs as their bytes). Paths are relative to the repository, so two checkouts compare equal.
set -uo pipefail
binary=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
out=$2
cd "$(dirname "$0")/.."
rm -rf "$out"
mkdir -p "$out"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

run() { # NAME INPUT-LABEL COMMAND...
    local name=$1 label=$2
    shift 2
    local dir="$out/$label"
    mkdir -p "$dir"
    (cd "$scratch" && "$binary" "$@") >"$dir/$name.out" 2>"$dir/$name.err"
    echo "$?" >"$dir/$name.status"
    # The scratch folder's path is the only thing that differs between two runs.
    sed -i "s|$scratch|SCRATCH|g" "$dir/$name.out" "$dir/$name.err"
}

find Samples Tests/ResumeDataCodecTests/Fixtures FuzzTesting/FailCases -type f | LC_ALL=C sort | while read -r file; do
    input=$PWD/$file
    run inspect "$file" inspect "$input"
    run inspect-json "$file" inspect --json "$input"
    run validate "$file" validate "$input"
    run plist-print "$file" plist print "$input"
    run plist-json "$file" plist convert --to json "$input"
    run archive "$file" archive "$input"
    run archive-json "$file" archive --json "$input"
    for to in xml binary keyed-archive nwurlsession; do
        rm -f "$scratch/converted"
        run "convert-$to" "$file" convert "$input" --to "$to" -o "$scratch/converted"
        [ -f "$scratch/converted" ] && cp "$scratch/converted" "$out/$file/convert-$to.bytes"
    done
    rm -f "$scratch/repaired"
    run repair "$file" repair "$input" -o "$scratch/repaired"
    [ -f "$scratch/repaired" ] && cp "$scratch/repaired" "$out/$file/repair.bytes"
done
for tree in Samples Tests/ResumeDataCodecTests/Fixtures FuzzTesting/FailCases; do
    run scan "scan/$tree" scan "$PWD/$tree"
    run scan-json "scan/$tree" scan --json "$PWD/$tree"
    run scan-csv "scan/$tree" scan --csv "$PWD/$tree"
done
# Names that are not UTF-8, normalization twins, combining marks, the escape spelled, hostile
# device paths: in a folder tree, a tar.gz and a zip.
python3 Scripts/hostile-names-tree.py "$scratch"
for tree in tree tree.tar.gz tree.zip; do
    for format in text --json --csv --timeline; do
        run "scan${format#text}" "scan/hostile-names/$tree" scan $( [ "$format" = text ] || echo "$format" ) "$scratch/$tree"
    done
done
# The tree's files were made now: their change time (which no one can set) is the one time that
# differs between two runs; the times the script set are kept.
find "$out/scan/hostile-names" -type f -exec sed -i -E \
    -e 's/2023-11-14T22:13:20Z/SET-TIME/g; s/,1700000000000000,/,SET-MICROSECONDS,/g' \
    -e 's/20[0-9]{2}-[0-9]{2}-[0-9]{2}T[0-9:.]+Z/CHANGE-TIME/g; s/,1[0-9]{15},/,CHANGE-MICROSECONDS,/g' \
    -e 's/SET-TIME/2023-11-14T22:13:20Z/g; s/SET-MICROSECONDS/1700000000000000/g' {} +
sed -i "s|$PWD|REPO|g" $(find "$out" -name '*.out' -o -name '*.err')
echo "$(find "$out" -name '*.status' | wc -l) runs recorded in $out"
