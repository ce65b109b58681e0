#!/usr/bin/env bash
# Counts the public declarations of a library target, per top-level type, from its symbol graph
# (what a client can name; protocol members the compiler synthesizes are left out), then its
# `package` declarations (what the package's other modules can name) and the whole package's.
#   Scripts/public-surface.sh [TARGET]    (default ResumeDataCodec; builds the target first)
# TARGET: ResumeDataCodec, ResumeScan, ResumeReports or ResumeTransfer.
# VERBOSE=1 also lists every declaration.
set -euo pipefail
cd "$(dirname "$0")/.."
target="${1:-ResumeDataCodec}"
# Quiet when it builds; the whole log when it does not.
swift build --target "$target" >/dev/null 2>&1 || swift build --target "$target"
bin="$(swift build --show-bin-path)"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
# The C shim's module map sits in its build folder, not on the default search path.
maps=()
for map in "$bin"/*.build/module.modulemap; do maps+=(-Xcc "-fmodule-map-file=$map"); done
# And the C modules of the dependencies (swift-numerics' shims, NIO's, BoringSSL's, GRDB's
# SQLite), which ResumeTransfer's and ResumeScan's interfaces reach.
while IFS= read -r map; do maps+=(-Xcc "-fmodule-map-file=$map"); done \
    < <(find .build/checkouts \( -path '*/include/module.modulemap' -o -path '*/Sources/GRDBSQLite/module.modulemap' \) 2>/dev/null)
swift-symbolgraph-extract -module-name "$target" -I "$bin/Modules" "${maps[@]}" \
    -target "$(uname -m)-unknown-linux-gnu" -minimum-access-level public -output-dir "$out"
if [ "${VERBOSE:-0}" = 1 ]; then detail=1; else detail=0; fi
python3 - "$out/$target.symbols.json" "$detail" <<'PY'
import collections, json, sys
graph = json.load(open(sys.argv[1]))
counts = collections.Counter()
for symbol in graph["symbols"]:
    if "::SYNTHESIZED::" in symbol["identifier"]["precise"]:
        continue
    counts[symbol["pathComponents"][0]] += 1
    if sys.argv[2] == "1":
        print("       " + ".".join(symbol["pathComponents"]))
for name, count in sorted(counts.items(), key=lambda item: (-item[1], item[0])):
    print(f"{count:5d}  {name}")
print(f"{sum(counts.values()):5d}  total")
PY
# `package` declarations, by their modifier in the source: the symbol graph has no level between
# internal and public that would give them alone.
count_package() {
    grep -rhE '^[[:space:]]*(@[A-Za-z]+[[:space:]]+)*package[[:space:]]+(static[[:space:]]+|final[[:space:]]+|mutating[[:space:]]+|nonisolated[[:space:]]+|convenience[[:space:]]+|private\(set\)[[:space:]]+)*(func|var|let|init|struct|enum|class|typealias|subscript|protocol|actor|case)\b' \
        --include='*.swift' "$@" | wc -l
}
echo "$(count_package "Sources/$target") package declarations in $target; $(count_package Sources) in the whole package"
