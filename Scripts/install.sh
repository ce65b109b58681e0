#!/usr/bin/env bash
# Builds resumetool and installs the binary (stripped), its man page and its bash, zsh and fish
# completions.
#   Scripts/install.sh                      # into /usr/local
#   PREFIX=$HOME/.local Scripts/install.sh  # elsewhere
#   DESTDIR=/tmp/stage Scripts/install.sh   # staged, for packaging: files land in $DESTDIR$PREFIX
# CONFIGURATION=debug reuses a debug build (what CI does to check this script quickly).
# STATIC=1 links the Swift runtime and Foundation into the binary (`--static-swift-stdlib`): it
# then runs on a machine without a Swift toolchain and starts faster, because the dynamic loader has 13 fewer libraries to map and relocate (see
# Benchmarks/RESULTS.md, "inspect: named files"); its own full build, about 9 minutes.
# Any failing step fails the script, so a half-installed tool is never reported as installed.
set -euo pipefail
cd "$(dirname "$0")/.."
prefix="${PREFIX:-/usr/local}"
root="${DESTDIR:-}${prefix}"
configuration="${CONFIGURATION:-release}"
static="${STATIC:-0}"
scratch=.build
# Its own build folder: the same objects linked the other way would otherwise replace the
# dynamically linked binary that `swift build` and `swift run` use.
if [ "$static" = 1 ]; then scratch=.build-static; fi
build=(-c "$configuration" --scratch-path "$scratch")
if [ "$static" = 1 ]; then build+=(--static-swift-stdlib); fi

swift build "${build[@]}" --product resumetool
# Kept aside: the manual plugin below builds the tool again in the same folder without
# `--static-swift-stdlib` (it cannot pass it), which relinks the binary dynamically.
built="$(mktemp -d)"
trap 'rm -rf "$built"' EXIT
cp "$(swift build "${build[@]}" --show-bin-path)/resumetool" "$built/resumetool"
binary="$built/resumetool"

# The man page comes from the commands themselves, through swift-argument-parser's plugin, which
# writes it under the build folder's plugins/; an older page there is removed first so that a failed
# generation cannot install a stale one.
rm -rf "$scratch/plugins/GenerateManual"
swift package --scratch-path "$scratch" plugin generate-manual --configuration "$configuration"
manual="$(find "$scratch/plugins/GenerateManual" -name resumetool.1 -print -quit)"
if [ -z "$manual" ]; then
    echo "install: the manual plugin wrote no resumetool.1" >&2
    exit 1
fi

install -d "$root/bin" "$root/share/man/man1" "$root/share/bash-completion/completions" \
    "$root/share/zsh/site-functions" "$root/share/fish/vendor_completions.d"
install -m 755 "$binary" "$root/bin/resumetool"
# The installed copy loses its symbol table (101 MB to 24 MB for a release build); the binary in
# the build folder keeps it for debugging. STRIP names another strip (a cross toolchain's);
# without one the copy is installed as built.
strip_tool="${STRIP:-strip}"
if command -v "$strip_tool" >/dev/null 2>&1; then
    "$strip_tool" "$root/bin/resumetool"
else
    echo "install: no $strip_tool: resumetool is installed unstripped" >&2
fi
install -m 644 "$manual" "$root/share/man/man1/resumetool.1"
# The directories bash-completion, zsh and fish look in by default under a prefix.
"$binary" --generate-completion-script bash >"$root/share/bash-completion/completions/resumetool"
"$binary" --generate-completion-script zsh >"$root/share/zsh/site-functions/_resumetool"
"$binary" --generate-completion-script fish >"$root/share/fish/vendor_completions.d/resumetool.fish"
echo "installed resumetool in $root"
