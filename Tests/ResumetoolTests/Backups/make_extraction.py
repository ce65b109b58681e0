#!/usr/bin/env python3
"""Builds full-file-system extractions of an iPhone, as a folder and as the zip and tar archives
examiners receive (forensic-formats §3), for `resumetool scan`'s tests and benchmark.

    make_extraction.py OUT [--prefix filesystem1/] [--noise N] [--samples DIR] [--formats zip,tar,...]
    make_extraction.py OUT --hostile KIND [--samples DIR]

OUT/tree/ is the extraction unpacked; OUT/extraction.FORMAT are the same files as archives (zip,
tar, tar.gz, tar.bz2, tar.xz), members in a fixed order with each container's metadata plist
last (after the blobs it names the app of). Around the repository's Samples/: an app container
with the real iOS 10.1 resume dictionary in its NSUserDefaults plist, the iOS 12 keyed-archive
blob with its partial file in tmp/, the iOS 8 blob whose LocalPath names the same partial file,
an orphan partial file in nsurlsessiond's Downloads folder; an app group with the iOS 26
Network-framework blob in its preferences. Times are fixed: modified 2026-01-02T03:04:06Z, and
in tar (pax) members also changed 2026-01-01T00:00:00Z and created 2025-12-31T00:00:00Z.

--hostile KIND writes OUT/hostile.(zip|tar|tar.gz) holding the iOS 12 blob first, then:
dotdot (a member ../escape.plist), absolute (/etc/evil.plist), links (a symbolic and a hard link
member), bomb (a zip member of 1 GiB of zeros), unsafe-bomb (the same named ../zeros.bin), truncated (the tar.gz cut short), longer (a zip member
that gives more than its headers declare, then another blob), many (100,000 small members); in a
tar, before a blob: ledger-large (a ledger of 65 MiB), ledger-corrupt (a member that starts like a
ledger and is not SQLite), wal-orphan (a ledger's -wal member without its database).

--ledger LAYOUT puts nsurlsessiond's ledger (Tests/LedgerFixtures/make_ledger.py --layout LAYOUT)
and its -wal first (--wal-first: the -wal before the database), with the partial file its task 1
names in another app's container.
"""
import argparse
import io
import os
import plistlib
import random
import tarfile
import time
import zipfile

MODIFIED, CHANGED, CREATED = 1767323046, 1767225600, 1767139200
APP_UUID = "8C1F2A90-6B7D-4E3C-9A51-2F0D3B4C5E6F"
GROUP_UUID = "1B2C3D4E-5F60-4A7B-8C9D-0E1F2A3B4C5D"
METADATA = ".com.apple.mobile_container_manager.metadata.plist"


def files(samples, noise):
    """(relative path below private/var/, bytes), in archive order."""
    def sample(name):
        with open(os.path.join(samples, name), "rb") as handle:
            return handle.read()
    app = f"mobile/Containers/Data/Application/{APP_UUID}/"
    group = f"mobile/Containers/Shared/AppGroup/{GROUP_UUID}/"
    defaults = plistlib.dumps({"pending": [{"title": "QQ", "resumeData": sample("ios10-corrupted-requests.plist")}], "volume": 0.5},
                              fmt=plistlib.FMT_BINARY)
    shared = plistlib.dumps({"lastTask": {"resumeData": sample("nwurlsession-ios26.resumedata")}}, fmt=plistlib.FMT_BINARY)
    orphan = random.Random(25)
    out = [
        (app + "Library/Preferences/com.example.app.plist", defaults),
        (app + "Library/Application Support/downloads/5d41402abc4b2a76b9719d911017c592", sample("ios12-keyed-archive.resumedata")),
        (app + "Library/Caches/ios8-download.plist", sample("ios8-local-path.plist")),
        (app + "Library/Caches/com.apple.nsurlsessiond/Downloads/com.example.app/CFNetworkDownload_a1B2c3.tmp",
         bytes(orphan.getrandbits(8) for _ in range(5000))),
        (app + "tmp/CFNetworkDownload_Occ2S2.tmp", sample("CFNetworkDownload_Occ2S2.tmp")),
        (app + "Documents/notes.txt", b"shopping list\n"),
        (app + "Documents/empty", b""),
        (group + "Library/Preferences/group.com.example.shared.plist", shared),
        ("mobile/Library/Preferences/com.apple.example.plist", plistlib.dumps({"theme": "dark"}, fmt=plistlib.FMT_BINARY)),
    ]
    for n in range(noise):
        body = plistlib.dumps({"n": n}, fmt=plistlib.FMT_BINARY) if n % 10 == 0 else f"noise {n}\n".encode() * 8
        out.append((f"mobile/Containers/Data/Application/{n % 50:08X}-0000-4000-8000-000000000000/Documents/{n:06d}.dat", body))
    out.append((app + METADATA, plistlib.dumps({"MCMMetadataIdentifier": "com.example.app", "MCMMetadataContentClass": 2},
                                               fmt=plistlib.FMT_BINARY)))
    out.append((group + METADATA, plistlib.dumps({"MCMMetadataIdentifier": "group.com.example.shared",
                                                  "MCMMetadataContentClass": 7}, fmt=plistlib.FMT_BINARY)))
    return out


LEDGER_GENERATOR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "LedgerFixtures", "make_ledger.py")
LEDGER = "mobile/Library/com.apple.nsurlsessiond/tasks.sqlite"
PLAYER_PARTIAL = ("mobile/Containers/Data/Application/8F9C2B1E-4D3A-4C2B-9E1F-0A1B2C3D4E5F/Library/Caches/"
                  "com.apple.nsurlsessiond/Downloads/com.example.player/CFNetworkDownload_d8md6s.tmp")


def ledger_files(layout, wal_first):
    """nsurlsessiond's ledger (make_ledger.py's standard rows, schema version 3) and its -wal, in
    the order asked, then the partial file its task 1 names (task 2's is absent)."""
    import subprocess
    import sys
    import tempfile
    with tempfile.TemporaryDirectory() as folder:
        subprocess.run([sys.executable, LEDGER_GENERATOR, folder, "--version", "3", "--layout", layout], check=True)
        def read(relative):
            with open(os.path.join(folder, "private/var", relative), "rb") as handle:
                return handle.read()
        main, wal, partial = read(LEDGER), read(LEDGER + "-wal"), read(PLAYER_PARTIAL)
    pair = [(LEDGER, main), (LEDGER + "-wal", wal)]
    return (pair[::-1] if wal_first else pair) + [(PLAYER_PARTIAL, partial)]


def folders_of(names):
    """Every folder above the names, each once, parents first (as extraction tools list them)."""
    seen, order = set(), []
    for name in names:
        parts = name.split("/")[:-1]
        for index in range(1, len(parts) + 1):
            folder = "/".join(parts[:index]) + "/"
            if folder not in seen:
                seen.add(folder)
                order.append(folder)
    return order


def write_tree(out, members):
    for name, data in members:
        path = os.path.join(out, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as handle:
            handle.write(data)
        os.utime(path, (MODIFIED, MODIFIED))


def zip_info(name, mode):
    info = zipfile.ZipInfo(name, date_time=time.localtime(MODIFIED)[:6])
    info.create_system = 3
    info.external_attr = mode << 16
    info.compress_type = zipfile.ZIP_DEFLATED
    return info


def write_zip(path, members, with_folders=True):
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        if with_folders:
            for folder in folders_of([name for name, _ in members]):
                archive.writestr(zip_info(folder, 0o40755), b"")
        for name, data in members:
            archive.writestr(zip_info(name, 0o100644), data)


def tar_info(name, size, kind=tarfile.REGTYPE, mode=0o644):
    info = tarfile.TarInfo(name)
    info.size = size
    info.type = kind
    info.mode = mode
    info.mtime = MODIFIED
    info.uname = info.gname = "mobile"
    info.uid = info.gid = 501
    info.pax_headers = {"ctime": str(CHANGED), "LIBARCHIVE.creationtime": str(CREATED)}
    return info


def write_tar(path, mode, members, extra=None):
    with tarfile.open(path, mode, format=tarfile.PAX_FORMAT) as archive:
        for folder in folders_of([name for name, _ in members]):
            archive.addfile(tar_info(folder.rstrip("/"), 0, tarfile.DIRTYPE, 0o755))
        for name, data in members:
            archive.addfile(tar_info(name, len(data)), io.BytesIO(data))
        if extra:
            extra(archive)


TAR_MODES = {"tar": "w", "tar.gz": "w:gz", "tar.bz2": "w:bz2", "tar.xz": "w:xz"}


def hostile(out, kind, samples):
    with open(os.path.join(samples, "ios12-keyed-archive.resumedata"), "rb") as handle:
        blob = handle.read()
    first = [("filesystem1/private/var/mobile/Library/Caches/first.resumedata", blob)]
    path = os.path.join(out, "hostile")
    if kind in ("dotdot", "absolute"):
        name = "../escape.plist" if kind == "dotdot" else "/etc/evil.plist"
        write_tar(path + ".tar", "w", first, lambda a: a.addfile(tar_info(name, len(blob)), io.BytesIO(blob)))
    elif kind == "links":
        def links(archive):
            link = tar_info("filesystem1/private/var/mobile/Library/Caches/link.plist", 0, tarfile.SYMTYPE, 0o777)
            link.linkname = "/etc/passwd"
            archive.addfile(link)
            hard = tar_info("filesystem1/private/var/mobile/Library/Caches/hard.plist", 0, tarfile.LNKTYPE)
            hard.linkname = first[0][0]
            archive.addfile(hard)
        write_tar(path + ".tar", "w", first, links)
    elif kind in ("bomb", "unsafe-bomb"):
        zeros_name = "filesystem1/private/var/mobile/zeros.bin" if kind == "bomb" else "../zeros.bin"
        with zipfile.ZipFile(path + ".zip", "w", zipfile.ZIP_DEFLATED) as archive:
            archive.writestr(zip_info(first[0][0], 0o100644), blob)
            with archive.open(zip_info(zeros_name, 0o100644), "w", force_zip64=True) as member:
                zeros = bytes(1 << 20)
                for _ in range(1024):
                    member.write(zeros)
    elif kind == "truncated":
        write_tar(path + ".tar.gz", "w:gz", first + [(f"filesystem1/private/var/mobile/noise/{n}.bin",
                                                     random.Random(n).randbytes(20000)) for n in range(20)])
        size = os.path.getsize(path + ".tar.gz")
        with open(path + ".tar.gz", "r+b") as handle:
            handle.truncate(size // 2)
    elif kind == "longer":
        # A member whose headers (local and central) declare 1,000 bytes but whose data inflates to 70,000.
        name = "filesystem1/private/var/mobile/Library/Caches/longer.bin"
        with zipfile.ZipFile(path + ".zip", "w", zipfile.ZIP_DEFLATED) as archive:
            archive.writestr(zip_info(first[0][0], 0o100644), blob)
            archive.writestr(zip_info(name, 0o100644), random.Random(7).randbytes(70000))
            archive.writestr(zip_info("filesystem1/private/var/mobile/Library/Caches/after.resumedata", 0o100644), blob)
        with open(path + ".zip", "r+b") as handle:
            data = bytearray(handle.read())
            encoded = name.encode()
            local = data.find(b"PK\x03\x04" + b"\x00" * 0, data.find(encoded) - 30)
            data[local + 22:local + 26] = (1000).to_bytes(4, "little")
            central = data.rfind(b"PK\x01\x02", 0, data.rfind(encoded))
            data[central + 24:central + 28] = (1000).to_bytes(4, "little")
            handle.seek(0)
            handle.write(data)
    elif kind in ("ledger-large", "ledger-corrupt", "wal-orphan"):
        # A ledger over the bound held in memory (a real SQLite file: the schema on page 1, then
        # 65 MiB of rows); a member that starts like a ledger and is not SQLite; a -wal member
        # whose database never comes. Each before the blob, which must still be found.
        import sqlite3
        import tempfile
        base = "filesystem1/private/var/mobile/Library/com.apple.nsurlsessiond/tasks.sqlite"
        if kind == "ledger-large":
            with tempfile.TemporaryDirectory() as folder:
                database = os.path.join(folder, "tasks.sqlite")
                connection = sqlite3.connect(database)
                connection.execute("CREATE TABLE session_tasks (identifier int NOT NULL, session_id text NOT NULL, padding blob)")
                connection.executemany("INSERT INTO session_tasks VALUES (?, 's', zeroblob(1048576))", [(n,) for n in range(65)])
                connection.commit()
                connection.close()
                with open(database, "rb") as handle:
                    members = [(base, handle.read())]
        elif kind == "ledger-corrupt":
            members = [(base, b"SQLite format 3\0" + b"\x41" * 100 + b"CREATE TABLE session_tasks (identifier int)" + b"\x42" * 4000)]
        else:
            members = [(base + "-wal", bytes([0x37, 0x7F, 0x06, 0x82]) + bytes(28) + b"CREATE TABLE session_tasks (identifier int)")]
        write_tar(path + ".tar", "w", members + [("filesystem1/private/var/mobile/Library/Caches/after.resumedata", blob)])
    elif kind == "many":
        with zipfile.ZipFile(path + ".zip", "w", zipfile.ZIP_STORED) as archive:
            archive.writestr(zip_info(first[0][0], 0o100644), blob)
            for n in range(100_000):
                info = zip_info(f"filesystem1/private/var/mobile/many/{n // 1000}/{n}.txt", 0o100644)
                info.compress_type = zipfile.ZIP_STORED
                archive.writestr(info, b"x")
    else:
        raise SystemExit(f"unknown hostile kind {kind}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("out")
    parser.add_argument("--prefix", default="filesystem1/")
    parser.add_argument("--noise", type=int, default=0)
    parser.add_argument("--formats", default="zip,tar,tar.gz,tar.bz2,tar.xz")
    parser.add_argument("--no-tree", action="store_true")
    parser.add_argument("--hostile")
    # nsurlsessiond's ledger (make_ledger.py --layout LAYOUT), its -wal, and a partial file it names.
    parser.add_argument("--ledger", choices=["checkpointed", "wal-only", "empty-main"])
    parser.add_argument("--wal-first", action="store_true", help="the ledger's -wal member before its database")
    parser.add_argument("--samples", default=os.path.join(os.path.dirname(__file__), "..", "..", "..", "Samples"))
    arguments = parser.parse_args()
    os.makedirs(arguments.out, exist_ok=True)
    if arguments.hostile:
        hostile(arguments.out, arguments.hostile, arguments.samples)
        return
    listed = files(arguments.samples, arguments.noise)
    if arguments.ledger:
        listed = ledger_files(arguments.ledger, arguments.wal_first) + listed
    members = [(arguments.prefix + "private/var/" + name, data) for name, data in listed]
    if not arguments.no_tree:
        write_tree(os.path.join(arguments.out, "tree"), members)
    for fmt in filter(None, arguments.formats.split(",")):
        target = os.path.join(arguments.out, "extraction." + fmt)
        if fmt == "zip":
            write_zip(target, members)
        else:
            write_tar(target, TAR_MODES[fmt], members)


if __name__ == "__main__":
    main()
