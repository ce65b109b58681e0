#!/usr/bin/env python3
"""Writes Safari `.download` bundles as macOS leaves an unfinished download (upload-resume-data
spec §10), with Python's plistlib, for SafariDownloadTests:

    make_safari_download.py OUT

OUT/Downloads/ holds:
- Example-2.4.1.dmg.download/: the modern layout, a binary Info.plist (DownloadEntryURL,
  DownloadEntryPath, DownloadEntryIdentifier, DownloadEntrySandboxIdentifier,
  DownloadEntryDateAddedKey, DownloadEntryProgressBytesSoFar 4096, DownloadEntryProgressTotalToLoad
  2339054, DownloadEntryProfileUUIDStringKey), and the partial file Example-2.4.1.dmg
  (Samples/CFNetworkDownload_Occ2S2.tmp, 4,096 bytes);
- report.zip.download/: the legacy layout (Safari 1-5), an XML Info.plist whose
  DownloadEntryResumeInformation holds NSURLDownloadBytesReceived 1000, NSURLDownloadEntityTag and
  DownloadEntryURL, cancelled (DownloadEntryErrorCodeDictionaryKey -999); report.zip, 1,000 bytes;
- odd.bin.download/: values of the wrong type (bytes so far a string, total -5, date a string);
- empty.download/: a partial file and no Info.plist.
OUT/Desktop/setup.pkg.download/ is a legacy bundle as a real one from 2016 is on disk: a binary
Info.plist whose DownloadEntryResumeInformation holds NSURLDownloadBytesReceived 2048 and
NSURLDownloadServerModificationDate (no entity tag), the partial file setup.pkg (2,048 bytes), and
Finder's files beside them: `Icon\r` (empty, its icon in a resource fork), `.DS_Store` and the
AppleDouble `._setup.pkg`.
OUT/Library/Safari/Downloads.plist (binary) holds DownloadHistory: the modern bundle's entry, a
finished download, an entry that is a string and one with no DownloadEntry key.
Every file is modified 2026-01-02T03:04:05Z.
"""
import datetime
import os
import plistlib
import sys

MODIFIED = 1767323045
ADDED = datetime.datetime(2026, 1, 2, 2, 0, 0)


def bundle(folder, name, info, data, fmt):
    path = os.path.join(folder, name + ".download")
    os.makedirs(path, exist_ok=True)
    if info is not None:
        with open(os.path.join(path, "Info.plist"), "wb") as handle:
            plistlib.dump(info, handle, fmt=fmt)
    with open(os.path.join(path, name), "wb") as handle:
        handle.write(data)
    for entry in os.listdir(path):
        os.utime(os.path.join(path, entry), (MODIFIED, MODIFIED))


def main():
    out = os.path.join(sys.argv[1], "Downloads")
    samples = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "Samples")
    with open(os.path.join(samples, "CFNetworkDownload_Occ2S2.tmp"), "rb") as handle:
        partial = handle.read()
    bundle(out, "Example-2.4.1.dmg", {
        "DownloadEntryURL": "https://downloads.example.com/releases/Example-2.4.1.dmg",
        "DownloadEntryPath": "/Users/examiner/Downloads/Example-2.4.1.dmg",
        "DownloadEntryIdentifier": "0B1C2D3E-4F50-4617-8293-A4B5C6D7E8F9",
        "DownloadEntrySandboxIdentifier": "9F8E7D6C-5B4A-4392-8170-6F5E4D3C2B1A",
        "DownloadEntryDateAddedKey": ADDED,
        "DownloadEntryProgressBytesSoFar": 4096,
        "DownloadEntryProgressTotalToLoad": 2339054,
        "DownloadEntryProfileUUIDStringKey": "DefaultProfile",
    }, partial, plistlib.FMT_BINARY)
    bundle(out, "report.zip", {
        "DownloadEntryPath": "/Users/examiner/Desktop/report.zip",
        "DownloadEntryResumeInformation": {
            "NSURLDownloadBytesReceived": 1000,
            "NSURLDownloadEntityTag": "\"5d41402a-3e8\"",
            "DownloadEntryURL": "http://files.example.org/report.zip",
        },
        "DownloadEntryErrorCodeDictionaryKey": -999,
        "DownloadEntryErrorDomainDictionaryKey": "NSURLErrorDomain",
    }, bytes(range(256)) * 3 + bytes(232), plistlib.FMT_XML)
    bundle(out, "odd.bin", {
        "DownloadEntryURL": "https://example.com/odd.bin",
        "DownloadEntryProgressBytesSoFar": "many",
        "DownloadEntryProgressTotalToLoad": -5,
        "DownloadEntryDateAddedKey": "yesterday",
    }, b"odd\n", plistlib.FMT_BINARY)
    bundle(out, "empty", None, b"no Info.plist here\n", plistlib.FMT_BINARY)
    desktop = os.path.join(sys.argv[1], "Desktop")
    bundle(desktop, "setup.pkg", {
        "DownloadEntryPath": "/Users/examiner/Desktop/setup.pkg",
        "DownloadEntryResumeInformation": {
            "NSURLDownloadBytesReceived": 2048,
            "NSURLDownloadServerModificationDate": "Tue, 15 Nov 2016 08:12:31 GMT",
            "DownloadEntryURL": "http://downloads.example.net/setup.pkg",
        },
        "DownloadEntryErrorCodeDictionaryKey": -999,
        "DownloadEntryErrorDomainDictionaryKey": "NSURLErrorDomain",
    }, bytes(range(256)) * 8, plistlib.FMT_BINARY)
    real = os.path.join(desktop, "setup.pkg.download")
    for name, data in (("Icon\r", b""), (".DS_Store", b"\x00\x00\x00\x01Bud1" + bytes(26)),
                       ("._setup.pkg", b"\x00\x05\x16\x07\x00\x02\x00\x00Mac OS X        " + bytes(8))):
        with open(os.path.join(real, name), "wb") as handle:
            handle.write(data)
        os.utime(os.path.join(real, name), (MODIFIED, MODIFIED))
    safari = os.path.join(sys.argv[1], "Library", "Safari")
    os.makedirs(safari, exist_ok=True)
    history = os.path.join(safari, "Downloads.plist")
    with open(history, "wb") as handle:
        plistlib.dump({"DownloadHistory": [
            {
                "DownloadEntryURL": "https://downloads.example.com/releases/Example-2.4.1.dmg",
                "DownloadEntryPath": "/Users/examiner/Downloads/Example-2.4.1.dmg.download",
                "DownloadEntryIdentifier": "0B1C2D3E-4F50-4617-8293-A4B5C6D7E8F9",
                "DownloadEntryDateAddedKey": ADDED,
                "DownloadEntryProgressBytesSoFar": 4096,
                "DownloadEntryProgressTotalToLoad": 2339054,
                "DownloadEntryRemoveWhenDoneKey": False,
            },
            {
                "DownloadEntryURL": "https://example.org/manual.pdf",
                "DownloadEntryPath": "/Users/examiner/Downloads/manual.pdf",
                "DownloadEntryDateAddedKey": datetime.datetime(2025, 12, 30, 9, 0, 0),
                "DownloadEntryDateFinishedKey": datetime.datetime(2025, 12, 30, 9, 0, 7),
                "DownloadEntryProgressBytesSoFar": 52311,
                "DownloadEntryProgressTotalToLoad": 52311,
            },
            "junk",
            {"Unrelated": 1},
        ]}, handle, fmt=plistlib.FMT_BINARY)
    os.utime(history, (MODIFIED, MODIFIED))


if __name__ == "__main__":
    main()
