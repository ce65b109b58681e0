#!/usr/bin/env bash
# Builds extractions as real tools write them (issue 34, "real archives as they come"), for
# RealArchiveTests: OUT/tree/ is make_extraction.py's tree plus a sparse orphan partial file, and
# every archive below is made from it by Info-ZIP's zip, GNU tar, gzip or Python's zipfile, never
# written by hand, with the quirks each tool has:
#   zip64.zip         zip -fz: every member with Zip64 extra fields
#   streamed.zip      zip writing to a pipe: data descriptors after each member's data
#   streamed-stored.zip  Python's zipfile writing to a pipe: stored members with data descriptors
#   no-folders.zip    zip -D: no directory entries at all
#   gnu.tar           GNU tar --format=gnu --sparse: ././@LongLink names, an 'S' sparse member
#   pax.tar           GNU tar --format=posix --sparse: pax headers, GNU.sparse 1.0
#   split.tar.gz      one tar cut in 20,000-byte pieces, each gzipped: a gzip stream of many members
#   concatenated.tar.gz  cat a.tar.gz b.tar.gz: two tars, the second after the first's end
#   dot.tar.gz        tar czf of '.': names that start with ./, the first of them ./ alone
#   duplicate.tar     GNU tar -r: the partial file and a blob appended again, changed
#   non-utf8.tar, non-utf8.zip  OUT/non-utf8/: two folders whose names differ in one byte that is
#                     not UTF-8, each with a blob and its own partial file
#     make_real_archives.sh OUT
set -euo pipefail
out=$1
here=$(cd "$(dirname "$0")" && pwd)
samples=$here/../../../Samples
modified=1767323046
app=filesystem1/private/var/mobile/Containers/Data/Application/8C1F2A90-6B7D-4E3C-9A51-2F0D3B4C5E6F
downloads=$app/Library/Caches/com.apple.nsurlsessiond/Downloads/com.example.app
export LC_ALL=C TZ=UTC

mkdir -p "$out"
python3 "$here/make_extraction.py" "$out" --formats ""
cd "$out/tree"
# A partial file preallocated to its full size, as a download may be: 1 MiB of hole, then data.
python3 -c '
import sys
with open(sys.argv[1], "wb") as handle:
    handle.seek(1 << 20)
    handle.write(b"the last bytes received " * 20)
' "$downloads/CFNetworkDownload_sp4rse.tmp"
find . -exec touch -h -d "@$modified" {} +
tar_options=(--sort=name --mtime="@$modified" --owner=mobile:501 --group=mobile:501)

zip -q -X -r -fz ../zip64.zip filesystem1
zip -q -X -r - filesystem1 | cat >../streamed.zip
zip -q -X -r -D ../no-folders.zip filesystem1
python3 - ../streamed-stored.zip <<'EOF'
import os, subprocess, sys, zipfile
# Written to a pipe, zipfile cannot seek back to the local header: each member's sizes and CRC
# follow its data in a data descriptor.
with open(sys.argv[1], "wb") as target:
    cat = subprocess.Popen(["cat"], stdin=subprocess.PIPE, stdout=target)
    with zipfile.ZipFile(cat.stdin, "w", zipfile.ZIP_STORED) as archive:
        for folder, folders, files in sorted(os.walk("filesystem1")):
            folders.sort()
            for name in sorted(files):
                archive.write(os.path.join(folder, name))
    cat.stdin.close()
    sys.exit(cat.wait())
EOF
tar "${tar_options[@]}" --format=gnu --sparse -cf ../gnu.tar filesystem1
tar "${tar_options[@]}" --format=posix --pax-option=delete=atime,delete=ctime --sparse -cf ../pax.tar filesystem1

tar "${tar_options[@]}" --format=gnu -cf ../whole.tar filesystem1
split -b 20000 ../whole.tar ../piece.
for piece in ../piece.*; do gzip -n -c "$piece"; done >../split.tar.gz
rm ../piece.* ../whole.tar
tar "${tar_options[@]}" --format=gnu -czf ../first.tar.gz filesystem1/private/var/mobile/Library
tar "${tar_options[@]}" --format=gnu -czf ../second.tar.gz filesystem1/private/var/mobile/Containers
cat ../first.tar.gz ../second.tar.gz >../concatenated.tar.gz
rm ../first.tar.gz ../second.tar.gz
# `tar czf x.tar.gz .`: every name starts with ./, and the first member is ./ itself.
tar "${tar_options[@]}" --format=gnu -czf ../dot.tar.gz .

# The later members: the partial file grown by 8,192 bytes, the iOS 8 blob no longer a blob.
cp -a . ../later
cd ../later
head -c 8192 /dev/zero >>"$app/tmp/CFNetworkDownload_Occ2S2.tmp"
printf 'not a blob any more\n' >"$app/Library/Caches/ios8-download.plist"
touch -d "@$modified" "$app/tmp/CFNetworkDownload_Occ2S2.tmp" "$app/Library/Caches/ios8-download.plist"
cp ../gnu.tar ../duplicate.tar
tar "${tar_options[@]}" --format=gnu -rf ../duplicate.tar "$app/tmp/CFNetworkDownload_Occ2S2.tmp" "$app/Library/Caches/ios8-download.plist"
cd ..
rm -rf later

mkdir non-utf8
cd non-utf8
for byte in fe ff; do
    folder=$(printf "filesystem1/private/var/mobile/Junk/caf\\x$byte")
    mkdir -p "$folder/Library/Caches" "$folder/tmp"
    cp "$samples/ios12-keyed-archive.resumedata" "$folder/Library/Caches/blob.resumedata"
    # Each folder's partial file has its own size: 2,540 and 2,550 bytes.
    head -c $((0x$byte * 10)) /dev/zero | tr '\0' "x" >"$folder/tmp/CFNetworkDownload_Occ2S2.tmp"
done
find . -exec touch -h -d "@$modified" {} +
tar "${tar_options[@]}" --format=gnu -cf ../non-utf8.tar filesystem1
zip -q -X -r ../non-utf8.zip filesystem1
