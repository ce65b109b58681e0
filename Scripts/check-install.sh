#!/usr/bin/env bash
# CI's check of Scripts/install.sh: installs a debug build into temporary DESTDIRs, once with the
# default PREFIX and once with another, and checks that every file is there and is what the
# binary itself says it should be, and that the installed binary is stripped. Fails on the first
# difference.
set -euo pipefail
cd "$(dirname "$0")/.."
stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT

fail() { echo "check-install: $*" >&2; exit 1; }

check() {
    local root="$1"
    local binary="$root/bin/resumetool"
    [ -x "$binary" ] || fail "no executable $binary"
    [ "$("$binary" --version)" = "$(.build/debug/resumetool --version)" ] || fail "$binary is not the built tool"
    # The installed copy is stripped when a strip is there; the build folder's binary is not.
    if command -v strip >/dev/null 2>&1 && command -v readelf >/dev/null 2>&1; then
        local sections
        sections="$(readelf -S -W "$binary")"
        [[ "$sections" != *.symtab* ]] || fail "$binary still has its symbol table (not stripped)"
        sections="$(readelf -S -W .build/debug/resumetool)"
        [[ "$sections" == *.symtab* ]] || fail ".build/debug/resumetool lost its symbol table"
    fi
    local shell file
    for shell in bash zsh fish; do
        case "$shell" in
        bash) file="$root/share/bash-completion/completions/resumetool" ;;
        zsh) file="$root/share/zsh/site-functions/_resumetool" ;;
        fish) file="$root/share/fish/vendor_completions.d/resumetool.fish" ;;
        esac
        cmp -s "$file" <("$binary" --generate-completion-script "$shell") || fail "$file differs from the $shell script"
    done
    local manual="$root/share/man/man1/resumetool.1"
    grep -qx '.Dt RESUMETOOL 1' "$manual" || fail "$manual is not the resumetool(1) page"
    # Every subcommand has its entry in the single-page manual.
    local subcommand
    for subcommand in inspect validate explain edit convert repair rebuild relocate discard plist archive scan tasks download resume recover; do
        grep -qx ".It Em $subcommand" "$manual" || fail "$manual has no entry for $subcommand"
    done
    # The one table of exit statuses reaches the page: every command's help says its part of it.
    [ "$(grep -c 'Exit status: 0 ' "$manual")" -ge 10 ] || fail "$manual lacks a command's exit statuses"
    grep -q '64 usage error' "$manual" || fail "$manual lacks the exit-status table"
}

CONFIGURATION=debug DESTDIR="$stage/default" Scripts/install.sh
check "$stage/default/usr/local"
CONFIGURATION=debug PREFIX=/opt/resumetool DESTDIR="$stage/prefixed" Scripts/install.sh
check "$stage/prefixed/opt/resumetool"
[ ! -e "$stage/prefixed/usr" ] || fail "PREFIX was not honoured"
echo "check-install: ok"
