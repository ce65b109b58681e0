#!/usr/bin/env bash
# Loopback transfer benchmark (issue 5 "Speed", issue 7 "transfer"): a 1 GiB file from nginx
# downloaded with the release-built `resumetool download` vs curl, wget and aria2c, plus the
# continue case. Arguments go to Benchmarks/transfer/transfer.py (--runs N, --size-mib N,
# --only TOOL, --skip-continue, --work DIR to keep the generated file between invocations).
# Tables go to standard output, progress to standard error.
set -euo pipefail
cd "$(dirname "$0")/.."
missing=()
for tool in /usr/sbin/nginx curl wget aria2c python3 strace; do
    command -v "$tool" >/dev/null || missing+=("$tool")
done
if ((${#missing[@]})); then
    echo "transfer.sh needs: ${missing[*]} (apt-get install -y nginx-light curl wget aria2 python3 strace)" >&2
    exit 1
fi
df -h /tmp >&2
swift build -c release --product resumetool >&2
exec python3 Benchmarks/transfer/transfer.py --resumetool "$(swift build -c release --show-bin-path)/resumetool" "$@"
