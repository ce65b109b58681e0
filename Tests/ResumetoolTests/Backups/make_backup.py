#!/usr/bin/env python3
"""Builds iTunes/Finder backups, plain or encrypted, as forensic-formats §2 describes them, for
`resumetool scan`'s tests and benchmark.

    make_backup.py OUT [--password PW [--dpic N] [--iter N] [--keybag-dpic N] [--keybag-iter N]]
                   [--noise N] [--missing N] [--hostile] [--mbdb] [--archive] [--forensic-copy] [--no-tmp] [--manifest-wal tail|wal-only]
                   [--samples DIR]

Around the repository's Samples/: the real iOS 10.1 resume dictionary (Apple's own request
archives) inside an app's NSUserDefaults plist, the iOS 12 keyed-archive blob as a file of its
own with its partial file in tmp/, the iOS 26 Network-framework blob inside an app group's
preferences. Everything is deterministic (random bytes come from a seeded generator, times are
fixed), so tests compare exact values.

--ledger LAYOUT adds nsurlsessiond's ledger (Tests/LedgerFixtures/make_ledger.py, schema version 3) as
HomeDomain/Library/com.apple.nsurlsessiond/tasks.sqlite and its -wal, and the partial file its first
task names in AppDomain-com.example.player.

--archive adds AppDomain-com.example.app's Documents/export.zip, a zip holding the iOS 12 blob.

--hostile adds a row whose relativePath climbs out with ../, a row whose file is missing, and a
row whose MBFile record is not a keyed archive. --noise N adds N small files (benchmark).
--missing N adds N rows whose stored files are not in the folder (an incomplete copy).

--no-tmp leaves out the partial file in tmp/, as real backups do (they never hold tmp/ or
Library/Caches/); without it the file is there, so that pairing can be tested.

--manifest-wal tail copies Manifest.db in WAL mode as a live copy would catch it: the rows of the
files around the samples only in Manifest.db-wal; --manifest-wal wal-only leaves Manifest.db empty
and every row in the WAL.

--forensic-copy leaves out Manifest.plist and Status.plist and writes Info.plist as a binary
plist: what forensic tools and test corpora often keep of a backup (Manifest.db, Info.plist, the
files).
Encryption needs Python's `cryptography` package (Debian: python3-cryptography).
"""
import argparse
import hashlib
import io
import os
import plistlib
import random
import sqlite3
import struct
import sys
import zipfile

# 2026-01-02T03:04:05Z, 2026-01-01T00:00:00Z, 2025-12-31T00:00:00Z
MODIFIED, CHANGED, CREATED = 1767323045, 1767225600, 1767139200
KEYBAG_UUID = bytes(range(16))


def fixed_random(seed):
    generator = random.Random(seed)
    return lambda n: bytes(generator.getrandbits(8) for _ in range(n))


def file_id(domain, relative_path):
    return hashlib.sha1(f"{domain}-{relative_path}".encode()).hexdigest()


def mbfile(relative_path, size, mode, inode, protection_class, encryption_key):
    """An NSKeyedArchiver archive of an MBFile, with the keys iOS 26's BackupAgent2 encodes."""
    objects = ["$null"]
    root = {
        "LastModified": MODIFIED, "LastStatusChange": CHANGED, "Birth": CREATED,
        "Size": size, "Mode": mode, "UserID": 501, "GroupID": 501, "InodeNumber": inode,
        "ProtectionClass": protection_class, "Flags": 0,
    }
    objects.append(root)
    objects.append(relative_path)
    root["RelativePath"] = plistlib.UID(2)
    if encryption_key is not None:
        objects.append({"NS.data": encryption_key, "$class": plistlib.UID(4)})
        objects.append({"$classname": "NSMutableData", "$classes": ["NSMutableData", "NSData", "NSObject"]})
        root["EncryptionKey"] = plistlib.UID(3)
    objects.append({"$classname": "MBFile", "$classes": ["MBFile", "NSObject"]})
    root["$class"] = plistlib.UID(len(objects) - 1)
    return plistlib.dumps({"$version": 100000, "$archiver": "NSKeyedArchiver", "$top": {"root": plistlib.UID(1)},
                           "$objects": objects}, fmt=plistlib.FMT_BINARY)


def tlv(tag, value):
    if isinstance(value, int):
        value = struct.pack(">L", value)
    return tag.encode() + struct.pack(">L", len(value)) + value


class Encryption:
    """The keybag, class keys and file keys of an encrypted backup."""

    def __init__(self, password, dpic, iterations, random_bytes, claimed_dpic=None, claimed_iterations=None):
        from cryptography.hazmat.primitives.keywrap import aes_key_wrap
        self.wrap = aes_key_wrap
        self.random = random_bytes
        dpsl, salt = random_bytes(20), random_bytes(20)
        stage = hashlib.pbkdf2_hmac("sha256", password.encode(), dpsl, dpic, 32)
        passcode_key = hashlib.pbkdf2_hmac("sha1", stage, salt, iterations, 32)
        self.class_keys = {c: random_bytes(32) for c in range(1, 12)}
        keybag = [tlv("VERS", 4), tlv("TYPE", 1), tlv("UUID", KEYBAG_UUID), tlv("HMCK", random_bytes(40)),
                  tlv("WRAP", 0), tlv("SALT", salt), tlv("ITER", claimed_iterations or iterations), tlv("DPWT", 1),
                  tlv("DPIC", claimed_dpic or dpic),
                  tlv("DPSL", dpsl)]
        for protection_class, key in self.class_keys.items():
            keybag += [tlv("UUID", random_bytes(16)), tlv("CLAS", protection_class), tlv("WRAP", 2), tlv("KTYP", 0),
                       tlv("WPKY", aes_key_wrap(passcode_key, key))]
        self.keybag = b"".join(keybag)

    def wrapped(self, protection_class, key):
        return struct.pack("<L", protection_class) + self.wrap(self.class_keys[protection_class], key)

    @staticmethod
    def encrypt(key, data):
        from cryptography.hazmat.primitives import padding
        from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
        padder = padding.PKCS7(128).padder()
        padded = padder.update(data) + padder.finalize()
        encryptor = Cipher(algorithms.AES(key), modes.CBC(b"\0" * 16)).encryptor()
        return encryptor.update(padded) + encryptor.finalize()


def resume_files(samples):
    """(domain, relativePath, bytes) of the files around the samples."""
    def sample(name):
        with open(os.path.join(samples, name), "rb") as handle:
            return handle.read()
    ios10 = sample("ios10-corrupted-requests.plist")
    defaults = plistlib.dumps({"pending": [{"title": "QQ", "resumeData": ios10}], "volume": 0.5}, fmt=plistlib.FMT_BINARY)
    group = plistlib.dumps({"lastTask": {"resumeData": sample("nwurlsession-ios26.resumedata")}}, fmt=plistlib.FMT_BINARY)
    app = "AppDomain-com.example.app"
    return [
        (app, "Library/Preferences/com.example.app.plist", defaults),
        (app, "Library/Application Support/downloads/5d41402abc4b2a76b9719d911017c592", sample("ios12-keyed-archive.resumedata")),
        (app, "tmp/CFNetworkDownload_Occ2S2.tmp", sample("CFNetworkDownload_Occ2S2.tmp")),
        (app, "Documents/notes.txt", b"shopping list\n"),
        (app, "Documents/empty", b""),
        ("AppDomainGroup-group.com.example.shared", "Library/Preferences/group.com.example.shared.plist", group),
        ("HomeDomain", "Library/Preferences/com.apple.example.plist", plistlib.dumps({"theme": "dark"}, fmt=plistlib.FMT_BINARY)),
    ]


def mbdb_string(text):
    data = text.encode()
    return struct.pack(">H", 0xFFFF) if not data else struct.pack(">H", len(data)) + data


def mbdb_record(domain, relative_path, size, mode, inode):
    """One Manifest.mbdb record (iOS 9 and earlier), big-endian."""
    return (mbdb_string(domain) + mbdb_string(relative_path) + mbdb_string("") + mbdb_string("") + mbdb_string("")
            + struct.pack(">HQIIIII", mode, inode, 501, 501, MODIFIED, MODIFIED, CHANGED)
            + struct.pack(">QBB", size, 3, 0))


LEDGER_GENERATOR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "LedgerFixtures", "make_ledger.py")
LEDGER = "Library/com.apple.nsurlsessiond/tasks.sqlite"
PLAYER_PARTIAL = ("AppDomain-com.example.player",
                  "Library/Caches/com.apple.nsurlsessiond/Downloads/com.example.player/CFNetworkDownload_d8md6s.tmp")


def ledger_files(layout):
    """nsurlsessiond's ledger (schema version 3, make_ledger.py's standard rows) as HomeDomain rows,
    its -wal beside it, and the partial file of its task 1 in the player's domain (task 2's is not
    there: backups leave Caches out)."""
    import subprocess
    import tempfile
    with tempfile.TemporaryDirectory() as folder:
        subprocess.run([sys.executable, LEDGER_GENERATOR, folder, "--version", "3", "--layout", layout], check=True)
        base = os.path.join(folder, "private/var/mobile", LEDGER)
        with open(base, "rb") as handle:
            main = handle.read()
        with open(base + "-wal", "rb") as handle:
            wal = handle.read()
        partial_path = os.path.join(folder, "private/var/mobile/Containers/Data/Application/8F9C2B1E-4D3A-4C2B-9E1F-0A1B2C3D4E5F",
                                    PLAYER_PARTIAL[1])
        with open(partial_path, "rb") as handle:
            partial = handle.read()
    return [("HomeDomain", LEDGER, main), ("HomeDomain", LEDGER + "-wal", wal), (PLAYER_PARTIAL[0], PLAYER_PARTIAL[1], partial)]


def write_manifest_with_wal(database, schema, rows, layout):
    """Manifest.db in WAL mode as a copy taken while the writer still had it open: with layout
    "tail", the main file holds the folder row and the noise and every file around the samples is
    only in Manifest.db-wal; with "wal-only", the main file is empty and everything is in the WAL."""
    import shutil
    import tempfile
    with tempfile.TemporaryDirectory() as folder:
        live = os.path.join(folder, "Manifest.db")
        connection = sqlite3.connect(live)
        connection.execute("PRAGMA journal_mode=WAL")
        connection.execute("PRAGMA wal_autocheckpoint=0")
        if layout == "tail":
            connection.executescript(schema)
            early = [row for row in rows if row[3] != 1 or "noise" in row[1]]
            connection.executemany("INSERT INTO Files VALUES (?, ?, ?, ?, ?)", early)
            connection.commit()
            connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            connection.executemany("INSERT INTO Files VALUES (?, ?, ?, ?, ?)", [row for row in rows if row not in early])
        else:
            connection.executescript(schema)
            connection.executemany("INSERT INTO Files VALUES (?, ?, ?, ?, ?)", rows)
        connection.commit()
        # Copied while the connection is open: closing it would checkpoint the WAL away.
        if layout == "wal-only":
            open(database, "wb").close()
        else:
            shutil.copyfile(live, database)
        shutil.copyfile(live + "-wal", database + "-wal")
        connection.close()


def export_zip(samples):
    """A zip holding the iOS 12 keyed-archive blob, with fixed times: the same bytes each run."""
    with open(os.path.join(samples, "ios12-keyed-archive.resumedata"), "rb") as handle:
        blob = handle.read()
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(zipfile.ZipInfo("export/keyed.resumedata", date_time=(2026, 1, 2, 3, 4, 6)), blob)
    return buffer.getvalue()


def build(out, password, dpic, iterations, noise, hostile, samples, claimed_dpic=None, claimed_iterations=None, mbdb=False,
          ledger=None, missing=0, forensic_copy=False, no_tmp=False,
          manifest_wal=None, archive=False):
    os.makedirs(out, exist_ok=True)
    random_bytes = fixed_random(25)
    encryption = (Encryption(password, dpic, iterations, random_bytes, claimed_dpic, claimed_iterations)
                  if password is not None else None)
    files = resume_files(samples)
    if no_tmp:
        files = [file for file in files if not file[1].startswith("tmp/")]
    if ledger:
        files += ledger_files(ledger)
    if archive:
        files.append(("AppDomain-com.example.app", "Documents/export.zip", export_zip(samples)))
    for n in range(noise):
        # Mostly text; every tenth a small property list that holds no blob, as preferences do.
        body = plistlib.dumps({"n": n}, fmt=plistlib.FMT_BINARY) if n % 10 == 0 else f"noise {n}\n".encode() * 8
        files.append((f"AppDomain-com.example.noise{n % 50}", f"Documents/{n:06d}.dat", body))
    rows = []
    mbdb_records = []

    def store(domain, relative_path, data, record_override=None, write=True, fid=None):
        fid = fid or file_id(domain, relative_path)
        key = None
        stored = data
        if encryption is not None and data:
            file_key = random_bytes(32)
            key = encryption.wrapped(3, file_key)
            stored = Encryption.encrypt(file_key, data)
        if write:
            folder = out if mbdb else os.path.join(out, fid[:2])
            os.makedirs(folder, exist_ok=True)
            with open(os.path.join(folder, fid), "wb") as handle:
                handle.write(stored)
            os.utime(os.path.join(folder, fid), (MODIFIED, MODIFIED))
        record = record_override if record_override is not None else mbfile(relative_path, len(data), 0o100644, 1000 + len(rows), 3, key)
        rows.append((fid, domain, relative_path, 1, record))
        mbdb_records.append(mbdb_record(domain, relative_path, len(data), 0o100644, 1000 + len(rows)))

    for domain, relative_path, data in files:
        store(domain, relative_path, data)
    # A folder row: scanned past, never opened.
    rows.append((file_id("AppDomain-com.example.app", "Documents"), "AppDomain-com.example.app", "Documents", 2,
                 mbfile("Documents", 0, 0o40755, 999, 0, None)))
    for n in range(missing):
        store(f"AppDomain-com.example.gone{n % 20}", f"Documents/{n:06d}.dat", f"gone {n}\n".encode(), write=False)
    if hostile:
        with open(os.path.join(samples, "ios12-keyed-archive.resumedata"), "rb") as handle:
            blob = handle.read()
        store("AppDomain-com.example.app", "../../../etc/escape.plist", blob)
        store("AppDomain-com.example.app", "Library/Preferences/missing.plist", blob, write=False)
        if not mbdb:
            store("AppDomain-com.example.app", "Library/Preferences/bad-record.plist", blob, record_override=b"not an archive")

    if mbdb:
        # A folder record and the files: the list of a backup made before iOS 10.
        with open(os.path.join(out, "Manifest.mbdb"), "wb") as handle:
            handle.write(b"mbdb\x05\x00" + mbdb_record("AppDomain-com.example.app", "Documents", 0, 0o40755, 999)
                         + b"".join(mbdb_records))
    database = os.path.join(out, "Manifest.db")
    if os.path.exists(database):
        os.remove(database)
    schema = """
        CREATE TABLE Files (fileID TEXT PRIMARY KEY, domain TEXT, relativePath TEXT, flags INTEGER, file BLOB);
        CREATE INDEX FilesDomainIdx ON Files(domain);
        CREATE INDEX FilesRelativePathIdx ON Files(relativePath);
        CREATE INDEX FilesFlagsIdx ON Files(flags);
        CREATE TABLE Properties (key TEXT PRIMARY KEY, value BLOB);
    """
    if manifest_wal and not mbdb:
        write_manifest_with_wal(database, schema, rows, manifest_wal)
    else:
        connection = sqlite3.connect(":memory:" if mbdb else database)
        connection.executescript(schema)
        connection.executemany("INSERT INTO Files VALUES (?, ?, ?, ?, ?)", rows)
        connection.commit()
        connection.close()

    manifest = {
        "IsEncrypted": encryption is not None, "Version": "10.0", "WasPasscodeSet": False,
        "Applications": {"com.example.app": {"CFBundleVersion": "1"}},
        "Lockdown": {"DeviceName": "Examiner's iPhone", "ProductVersion": "9.3.5" if mbdb else "18.2",
                     "ProductType": "iPhone8,1" if mbdb else "iPhone17,1",
                     "BuildVersion": "13G36" if mbdb else "22C152", "SerialNumber": "F17ZX0EXAMPL",
                     "UniqueDeviceID": "00008140-001A2B3C4D5E6F70"},
    }
    if encryption is not None:
        manifest_key = random_bytes(32)
        manifest["BackupKeyBag"] = encryption.keybag
        manifest["ManifestKey"] = encryption.wrapped(4, manifest_key)
        with open(database, "rb") as handle:
            plain = handle.read()
        with open(database, "wb") as handle:
            handle.write(Encryption.encrypt(manifest_key, plain))
    if not forensic_copy:
        with open(os.path.join(out, "Manifest.plist"), "wb") as handle:
            plistlib.dump(manifest, handle, fmt=plistlib.FMT_BINARY)
    with open(os.path.join(out, "Info.plist"), "wb") as handle:
        plistlib.dump({"Device Name": "Examiner's iPhone", "Product Type": "iPhone17,1", "Product Version": "18.2",
                       "Serial Number": "F17ZX0EXAMPL", "Build Version": "22C152",
                       "Unique Identifier": "00008140-001A2B3C4D5E6F70", "iTunes Version": "12.13"}, handle,
                      fmt=plistlib.FMT_BINARY if forensic_copy else plistlib.FMT_XML)
    if forensic_copy:
        return
    with open(os.path.join(out, "Status.plist"), "wb") as handle:
        plistlib.dump({"BackupState": "new", "IsFullBackup": False, "SnapshotState": "finished", "Version": "3.3"},
                      handle, fmt=plistlib.FMT_BINARY)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out")
    parser.add_argument("--password")
    parser.add_argument("--dpic", type=int, default=10_000_000)
    parser.add_argument("--iter", type=int, default=10_000)
    parser.add_argument("--noise", type=int, default=0)
    parser.add_argument("--missing", type=int, default=0, help="rows whose stored files are not in the folder")
    parser.add_argument("--forensic-copy", action="store_true",
                        help="no Manifest.plist, no Status.plist, a binary Info.plist")
    parser.add_argument("--no-tmp", action="store_true", help="leave out the partial file in tmp/, as real backups do")
    # Manifest.db copied with its -wal while open: the sample rows only in the WAL, or everything.
    parser.add_argument("--manifest-wal", choices=["tail", "wal-only"])
    parser.add_argument("--hostile", action="store_true")
    parser.add_argument("--mbdb", action="store_true", help="a backup of iOS 9 or earlier: Manifest.mbdb, files flat")
    # A keybag that claims other counts than the ones its keys were derived with (absurd ones).
    parser.add_argument("--keybag-dpic", type=int)
    parser.add_argument("--keybag-iter", type=int)
    parser.add_argument("--samples", default=os.path.join(os.path.dirname(__file__), "..", "..", "..", "Samples"))
    # nsurlsessiond's ledger (make_ledger.py --layout LAYOUT) with its -wal and a partial file.
    parser.add_argument("--ledger", choices=["checkpointed", "wal-only", "empty-main"])
    parser.add_argument("--archive", action="store_true", help="add Documents/export.zip, a zip holding a blob, to the app's domain")
    arguments = parser.parse_args()
    build(arguments.out, arguments.password, arguments.dpic, arguments.iter, arguments.noise, arguments.hostile,
          arguments.samples, arguments.keybag_dpic, arguments.keybag_iter, arguments.mbdb, arguments.ledger,
          arguments.missing, arguments.forensic_copy, arguments.no_tmp,
          arguments.manifest_wal, arguments.archive)


if __name__ == "__main__":
    sys.exit(main())
