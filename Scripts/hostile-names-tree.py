#!/usr/bin/env python3
"""Makes the evidence tree of hostile names that `output-snapshot.sh` scans, and a tar.gz and a
zip of it: so that a change to how paths are held is shown to change no report, byte for byte.

    Scripts/hostile-names-tree.py OUT

OUT/tree holds app containers whose folder and file names are not UTF-8 (Latin-1), a
normalization twin (`caf\\u00e9` and `cafe\\u0301`), a name beginning with a combining mark after
its slash, names that spell the scan's own escape (`\\x{e9}`) or hold a backslash, and blobs whose
TempFileName and LocalPath are hostile (`..`, `/.nofollow`, `/var` for `/private/var`, a NUL-free
path that is not UTF-8 as the blob spells it). OUT/tree.tar.gz and OUT/tree.zip hold the same
members. Every name is written by its bytes; nothing is random, so two runs make the same files.
"""
import io
import os
import plistlib
import sys
import tarfile
import zipfile


def blob(temp_name=None, local_path=None, received=100):
    """An NSURLSession resume blob of the iOS 9 form (a binary property list of strings)."""
    plist = {
        "NSURLSessionDownloadURL": "https://example.com/file.bin",
        "NSURLSessionResumeBytesReceived": received,
        "NSURLSessionResumeInfoVersion": 1,
    }
    if temp_name is not None:
        plist["NSURLSessionResumeInfoTempFileName"] = temp_name
    if local_path is not None:
        plist["NSURLSessionResumeInfoLocalPath"] = local_path
    return plistlib.dumps(plist, fmt=plistlib.FMT_BINARY, sort_keys=True)


CONTAINERS = "private/var/mobile/Containers/Data/Application/"
LATIN = b"caf\xe9"  # Latin-1: not UTF-8
NFC = "caf\u00e9".encode()
NFD = "cafe\u0301".encode()
MARK = "\u0301x".encode()  # a name beginning with a combining mark
ESCAPE = b"caf\\x{e9}"  # spells the escape itself
BACKSLASH = b"back\\slash"

# (relative path as bytes, content)
MEMBERS = [
    # A Latin-1 container and the UTF-8 one whose spelling is the same text: each pairs with its own.
    (LATIN + b"/Library/Caches/blob", blob("other.part")),
    (LATIN + b"/tmp/.keep", b""),
    (ESCAPE + b"/Library/Caches/blob", blob("other.part")),
    (ESCAPE + b"/tmp/other.part", b"\x03" * 100),
    # Normalization twins: two folders to Linux, one string to Swift.
    (NFC + b"/Library/Caches/blob", blob("CFNetworkDownload_twin.tmp", received=10)),
    (NFC + b"/tmp/CFNetworkDownload_twin.tmp", b"\x01" * 10),
    (NFD + b"/Library/Caches/blob", blob("CFNetworkDownload_twin.tmp", received=20)),
    (NFD + b"/tmp/CFNetworkDownload_twin.tmp", b"\x02" * 30),
    # A folder whose name begins with a combining mark, and a blob naming a partial file by bytes
    # that are not UTF-8.
    (MARK + b"/Library/Caches/blob", blob("CFNetworkDownload_\\x{ff}.tmp")),
    (MARK + b"/tmp/CFNetworkDownload_\xff.tmp", b"\x04" * 100),
    (MARK + b"/tmp/CFNetworkDownload_orphan\xfe.tmp", b"\x05" * 7),
    # Hostile names inside blobs.
    (BACKSLASH + b"/Library/Caches/dots", blob("../../../../etc/passwd")),
    (BACKSLASH + b"/Library/Caches/nofollow",
     blob(local_path="/.nofollow/private/var/mobile/Containers/Data/Application/"
          + BACKSLASH.decode() + "/tmp/CFNetworkDownload_nf.tmp")),
    (BACKSLASH + b"/Library/Caches/var",
     blob(local_path="/var/mobile/Containers/Data/Application/" + BACKSLASH.decode() + "/tmp/CFNetworkDownload_nf.tmp")),
    (BACKSLASH + b"/Library/Caches/slashes", blob("a//b/../CFNetworkDownload_nf.tmp")),
    (BACKSLASH + b"/Library/Caches/escaped", blob("CFNetworkDownload_\\x{5c}.tmp")),
    (BACKSLASH + b"/tmp/CFNetworkDownload_nf.tmp", b"\x06" * 100),
    (BACKSLASH + b"/tmp/CFNetworkDownload_\\.tmp", b"\x07" * 100),
    # A file name that is only a combining mark, and one with a newline and a tab.
    (b"odd/tmp/\xcc\x81", blob("x")),
    (b"odd/tmp/new\nline\ttab.tmp", b"\x08" * 3),
]


def main():
    out = os.fsencode(sys.argv[1])
    tree = os.path.join(out, b"tree")
    for relative, content in MEMBERS:
        path = os.path.join(tree, os.fsencode(CONTAINERS) + relative)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as file:
            file.write(content)
    # Fixed times, so that two runs report alike.
    for folder, folders, files in os.walk(tree, topdown=False):
        for name in files + folders:
            os.utime(os.path.join(folder, name), (1_700_000_000, 1_700_000_000), follow_symlinks=False)
    with tarfile.open(os.fsdecode(os.path.join(out, b"tree.tar.gz")), "w:gz", format=tarfile.GNU_FORMAT,
                      encoding="utf-8", errors="surrogateescape") as archive:
        for relative, content in MEMBERS:
            info = tarfile.TarInfo(os.fsdecode(os.fsencode(CONTAINERS) + relative))
            info.size, info.mtime, info.mode = len(content), 1_700_000_000, 0o644
            archive.addfile(info, io.BytesIO(content))
    with zipfile.ZipFile(os.fsdecode(os.path.join(out, b"tree.zip")), "w") as archive:
        for relative, content in MEMBERS:
            archive.writestr(RawNameZipInfo(os.fsencode(CONTAINERS) + relative), content)


class RawNameZipInfo(zipfile.ZipInfo):
    """A member named by its bytes: UTF-8 ones with the UTF-8 flag, as zipfile writes them, and
    one that is not UTF-8 (Latin-1) as it is with the flag clear, as old zips hold such names."""

    def __init__(self, raw):
        super().__init__(raw.decode("utf-8", "surrogateescape"), date_time=(2023, 11, 14, 22, 13, 20))
        self.raw = raw

    def _encodeFilenameFlags(self):
        try:
            self.raw.decode("utf-8")
            return self.raw, self.flag_bits | (0x800 if not self.raw.isascii() else 0)
        except UnicodeDecodeError:
            return self.raw, self.flag_bits

main()
