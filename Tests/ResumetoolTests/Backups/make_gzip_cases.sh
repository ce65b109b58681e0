#!/usr/bin/env bash
# Builds gzip-compressed extractions for GzipArchiveTests, each from make_extraction.py's tree
# by GNU tar and gzip (the damaged ones are copies with bytes changed, which is their point):
#   plain.tar        the tree as GNU tar writes it (what every .tar.gz below must scan like)
#   plain.tar.gz     tar | gzip: no name in the gzip header
#   named.tar.gz     gzip -N of the file: FNAME and the file's time in the header
#   best.tar.gz      gzip -9; fast.tar.gz gzip -1 (other block choices of the same deflate)
#   padded.tar.gz    plain.tar.gz, then text and 10 KiB of zeros that start no member
#   crc.tar.gz       plain.tar.gz with the trailer's CRC-32 changed
#   length.tar.gz    plain.tar.gz with the trailer's length changed
#   flipped.tar.gz   plain.tar.gz with one byte of the compressed data changed, halfway
#   bomb.tar.gz      with `bomb` only: the tree, then 256 MiB of zeros in one member (about
#                    1.2 MiB compressed)
#     make_gzip_cases.sh OUT [bomb]
set -euo pipefail
out=$1
what=${2:-cases}
here=$(cd "$(dirname "$0")" && pwd)
modified=1767323046
export LC_ALL=C TZ=UTC

mkdir -p "$out"
python3 "$here/make_extraction.py" "$out" --formats ""
cd "$out/tree"
find . -exec touch -h -d "@$modified" {} +
tar_options=(--sort=name --mtime="@$modified" --owner=mobile:501 --group=mobile:501 --format=gnu)
tar "${tar_options[@]}" -cf ../plain.tar filesystem1
cd ..
if [ "$what" = bomb ]; then
    mkdir -p bomb
    cp -R tree/filesystem1 bomb/
    truncate -s 256M bomb/filesystem1/private/var/mobile/zeros.bin
    (cd bomb && tar "${tar_options[@]}" -cf - filesystem1 | gzip -n -1 >../bomb.tar.gz)
    rm -rf bomb
    exit 0
fi
gzip -n -c plain.tar >plain.tar.gz
cp plain.tar named.tar && gzip -N -f named.tar
gzip -n -9 -c plain.tar >best.tar.gz
gzip -n -1 -c plain.tar >fast.tar.gz
{ cat plain.tar.gz; printf 'not another member\n'; head -c 10240 /dev/zero; } >padded.tar.gz

# Changes byte OFFSET of FILE to its complement.
flip() {
    python3 -c '
import sys
path, offset = sys.argv[1], int(sys.argv[2])
data = bytearray(open(path, "rb").read())
data[offset] ^= 0xFF
open(path, "wb").write(data)
' "$1" "$2"
}
size=$(stat -c %s plain.tar.gz)
cp plain.tar.gz crc.tar.gz && flip crc.tar.gz $((size - 8))
cp plain.tar.gz length.tar.gz && flip length.tar.gz $((size - 2))
cp plain.tar.gz flipped.tar.gz && flip flipped.tar.gz $((size / 2))

