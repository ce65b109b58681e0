#!/usr/bin/env bash
# The system packages resumetool needs on Debian or Ubuntu, installed once: Scripts/setup.sh for
# the build, Scripts/setup.sh --tests for the build and the test run. Run again, it installs
# nothing and says so. As root it installs with apt-get (apt-get update only when something is
# missing); otherwise it prints the one `sudo apt-get install …` line that would and exits 1.
set -euo pipefail
cd "$(dirname "$0")/.."

usage() { echo "usage: Scripts/setup.sh [--tests]"; }
tests=0
case "$#:${1-}" in
0:) ;;
1:--tests) tests=1 ;;
1:-h | 1:--help) usage; exit 0 ;;
*) usage >&2; exit 64 ;;
esac

if ! command -v dpkg-query >/dev/null 2>&1 || ! command -v apt-get >/dev/null 2>&1; then
    echo "setup: not a Debian or Ubuntu machine (no dpkg-query or apt-get); install by hand what" >&2
    echo "setup: the README's Install section lists" >&2
    exit 1
fi

installed() { [ "$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null)" = "install ok installed" ]; }

# What the build links, each through its pkg-config name (Package.swift's system libraries):
# libxml2 (property lists in XML), libarchive (zip and tar extractions), ISA-L (the gzip ones),
# SQLite (Manifest.db, tasks.sqlite). Encrypted backups need none: swift-crypto decrypts them.
need=()
for package in pkg-config libxml2-dev libarchive-dev libisal-dev libsqlite3-dev; do
    installed "$package" || need+=("$package")
done

pip_package=""
if [ "$tests" = 1 ]; then
    # The tests' peers, each looked for as a command so that another package's copy counts:
    # nginx and curl, the real server and the usual client the transfer tests compare with;
    # python3, which cross-checks plistlib and runs the fault sweep; strace, which injects the
    # sweep's faults; zip (Info-ZIP), which makes the Zip64, streamed and folder-less zips of
    # RealArchiveTests; chromium, which opens scan's HTML report headless.
    command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || need+=(nginx-light)
    command -v curl >/dev/null 2>&1 || need+=(curl)
    command -v python3 >/dev/null 2>&1 || need+=(python3)
    command -v strace >/dev/null 2>&1 || need+=(strace)
    command -v zip >/dev/null 2>&1 || need+=(zip)
    command -v chromium >/dev/null 2>&1 || need+=(chromium)
    # Python's cryptography: Tests/ResumetoolTests/Backups/make_backup.py encrypts backups with it.
    if ! command -v python3 >/dev/null 2>&1 || ! python3 -c 'import cryptography' >/dev/null 2>&1; then
        need+=(python3-cryptography)
    fi
    # iphone-backup-decrypt (PyPI only): BackupCrossCheckTests reads the generator's encrypted
    # backups with it, an independent reader of the format. pip comes from Debian's python3-pip.
    if ! command -v python3 >/dev/null 2>&1 || ! python3 -c 'import iphone_backup_decrypt' >/dev/null 2>&1; then
        pip_package="iphone-backup-decrypt==0.11.2"
        { command -v python3 >/dev/null 2>&1 && python3 -m pip --version >/dev/null 2>&1; } || need+=(python3-pip)
    fi
fi

if [ "${#need[@]}" -gt 0 ]; then
    if [ "$(id -u)" != 0 ]; then
        echo "setup: missing ${need[*]}; install them, then run this again:" >&2
        echo "sudo apt-get install -y ${need[*]}"
        exit 1
    fi
    echo "setup: installing ${need[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq "${need[@]}"
fi

if [ -n "$pip_package" ]; then
    # Debian's python3 refuses a plain `pip install` (PEP 668): the package goes beside the
    # system's own only when pip refuses it otherwise; a user who is not root gets it in ~/.local.
    user=()
    [ "$(id -u)" = 0 ] || user=(--user)
    echo "setup: installing $pip_package from PyPI"
    python3 -m pip install -q "${user[@]}" "$pip_package" ||
        python3 -m pip install -q "${user[@]}" --break-system-packages "$pip_package"
    python3 -c 'import iphone_backup_decrypt'
fi

echo "setup: everything the $([ "$tests" = 1 ] && echo "build and the tests need" || echo "build needs") is installed"
