#!/usr/bin/env python3
"""Builds nsurlsessiond task ledgers (tasks.sqlite) for resumetool's tests and benchmark.

The schema is the one of ../shared/spec/forensic-formats.md §1.2-1.3: `session_tasks` with its 62
columns in CREATE order, `PRAGMA user_version` 2 (iOS 18.2) or 3 (iOS 26.1, with `sessions`), or
any other version (an unknown one, with an extra column). Requests and responses are Apple's own
archives from ../shared/samples/real/, with their URL (and the response's validators) replaced;
NSError and NSURL archives are written here the way NSKeyedArchiver lays them out.

    make_ledger.py ROOT --version 2|3|N [--scenario standard|hostile|serve|bench]
                   [--rows N] [--url URL --etag ETAG --last-modified LM --received N --expected N]

ROOT is an extraction's top folder: the ledger goes to
ROOT/private/var/mobile/Library/com.apple.nsurlsessiond/tasks.sqlite, partial files (with the
bytes received) into the app containers below ROOT. The WAL is left un-checkpointed: the last
rows written live only in tasks.sqlite-wal, as on a device.
"""
import argparse
import os
import plistlib
import sqlite3
import sys
from plistlib import UID

HERE = os.path.dirname(os.path.abspath(__file__))
REAL = os.path.normpath(os.path.join(HERE, "..", "..", "..", "shared", "samples", "real"))
if not os.path.isdir(REAL):
    REAL = "/work/shared/samples/real"
ORIGINAL = "ios10.1_cfn808.1.4_NSURLSessionResumeOriginalRequest_keyedarchive_buggy-protoprop-keys.bplist"
CURRENT = "ios10.1_cfn808.1.4_NSURLSessionResumeCurrentRequest_keyedarchive_buggy-protoprop-keys.bplist"
RESPONSE = "macos10.15_2020_NSHTTPURLResponse_keyedarchive_secure-layout_safari-webarchive.bplist"

COLUMNS = [
    ("identifier", "int NOT NULL"), ("task_kind", "int"), ("creation_time", "real"), ("state", "int"),
    ("suspend_count", "int"), ("task_description", "text"), ("original_request", "blob"),
    ("current_request", "blob"), ("response", "blob"), ("earliest_begin_date", "real"),
    ("responded_to_will_begin_delayed_request_callback", "int"), ("error", "blob"), ("retry_error", "blob"),
    ("file_url", "text"), ("download_file_url", "text"), ("bundle_id", "text"), ("session_id", "text NOT NULL"),
    ("has_started", "int"), ("should_cancel_on_disconnect", "int"), ("base_priority", "int"),
    ("base_priority_set_explicitly", "int"), ("discretionary", "int"), ("discretionary_override", "int"),
    ("unique_identifier", "blob NOT NULL"), ("storage_partition_identifier", "text"),
    ("count_of_bytes_client_expects_to_send", "int"), ("count_of_bytes_client_expects_to_receive", "int"),
    ("count_of_bytes_received", "int"), ("count_of_bytes_sent", "int"), ("count_of_bytes_expected_to_send", "int"),
    ("count_of_bytes_expected_to_receive", "int"), ("bytes_per_second_limit", "int"),
    ("persona_unique_string", "text"), ("expected_progress_target", "int"), ("may_be_demoted_to_discretionary", "int"),
    ("tls_minimum_supported_protocol_version", "int"), ("tls_maximum_supported_protocol_version", "int"),
    ("has_sz_extractor", "int"), ("does_sz_extractor_consume_extracted_data", "int"),
    ("updated_streaming_zip_modification_date", "int"), ("started_user_initiated", "int"),
    ("additional_properties", "blob"), ("path_to_download_task_file", "text"), ("retry_count", "int"),
    ("loading_priority", "real"), ("qos", "int"), ("background_trailers", "blob"), ("task_metrics", "blob"),
    ("av_url", "text"), ("av_destination_url", "text"), ("av_options", "blob"),
    ("av_initialized_with_av_asset", "int"), ("av_temporary_destination_url", "text"), ("av_asset_title", "text"),
    ("av_asset_artwork_data", "blob"), ("av_asset_url", "text"), ("av_asset_download_token", "int"),
    ("av_asset_download_child_download_session_identifier", "text"), ("av_enable_spi_delegate_callbacks", "int"),
    ("av_download_config", "blob"), ("av_asset_options_plist", "blob"), ("resumable_upload_data", "blob"),
]
assert len(COLUMNS) == 62

LEDGER = "private/var/mobile/Library/com.apple.nsurlsessiond/tasks.sqlite"
PLAYER_CONTAINER = "private/var/mobile/Containers/Data/Application/8F9C2B1E-4D3A-4C2B-9E1F-0A1B2C3D4E5F"
PLAYER_DOWNLOADS = PLAYER_CONTAINER + "/Library/Caches/com.apple.nsurlsessiond/Downloads/com.example.player"


def archive(objects, top_key="root"):
    return plistlib.dumps({"$archiver": "NSKeyedArchiver", "$version": 100000, "$top": {top_key: UID(1)},
                           "$objects": objects}, fmt=plistlib.FMT_BINARY, sort_keys=False)


class Objects:
    """An $objects array being built, classes shared."""

    def __init__(self):
        self.objects = ["$null"]
        self.classes = {}

    def add(self, value):
        self.objects.append(value)
        return UID(len(self.objects) - 1)

    def reserve(self):
        return self.add(None)

    def cls(self, *chain):
        if chain[0] not in self.classes:
            self.classes[chain[0]] = self.add({"$classname": chain[0], "$classes": list(chain)})
        return self.classes[chain[0]]

    def url(self, string):
        uid = self.reserve()
        self.objects[uid.data] = {"NS.base": UID(0), "NS.relative": self.add(string), "$class": self.cls("NSURL", "NSObject")}
        return uid

    def dictionary(self, entries):
        uid = self.reserve()
        keys = [self.add(key) for key, _ in entries]
        values = [value if isinstance(value, UID) else self.add(value) for _, value in entries]
        self.objects[uid.data] = {"NS.keys": keys, "NS.objects": values,
                                  "$class": self.cls("NSDictionary", "NSObject")}
        return uid

    def error(self, domain, code, user_info, underlying=None):
        uid = self.reserve()
        entries = list(user_info)
        if underlying is not None:
            entries.append(("NSUnderlyingError", self.error(*underlying)))
        info = self.dictionary([(k, self.url(v[4:]) if isinstance(v, str) and v.startswith("URL:") else v)
                                for k, v in entries]) if entries else UID(0)
        self.objects[uid.data] = {"NSCode": code, "NSDomain": self.add(domain), "NSUserInfo": info,
                                  "$class": self.cls("NSError", "NSObject")}
        return uid


def url_archive(string):
    objects = Objects()
    objects.url(string)
    return archive(objects.objects)


def error_archive(domain, code, user_info, underlying=None):
    objects = Objects()
    objects.error(domain, code, user_info, underlying)
    return archive(objects.objects)


def cyclic_error_archive():
    """An NSError whose user info's underlying error is the error itself."""
    objects = Objects()
    root = objects.reserve()
    info = objects.dictionary([("NSLocalizedDescription", "loops"), ("NSUnderlyingError", root)])
    objects.objects[root.data] = {"NSCode": 1, "NSDomain": objects.add("Loop"), "NSUserInfo": info,
                                  "$class": objects.cls("NSError", "NSObject")}
    return archive(objects.objects)


def load(name):
    with open(os.path.join(REAL, name), "rb") as f:
        return plistlib.load(f)


def request_archive(name, url):
    """One of the two real iOS 10.1 request archives with its URL string replaced."""
    plist = load(name)
    objects = plist["$objects"]
    replaced = 0
    for index, value in enumerate(objects):
        if isinstance(value, str) and value.startswith("http://sw.bos.baidu.com/"):
            objects[index] = url
            replaced += 1
    assert replaced == 1, name
    return plistlib.dumps(plist, fmt=plistlib.FMT_BINARY, sort_keys=False)


def response_archive(url, etag, last_modified, length, status=200):
    """The real 2020 NSHTTPURLResponse with its URL, status and validators replaced; top key root."""
    plist = load(RESPONSE)
    objects = plist["$objects"]
    swap = {"https://crouton.net/crouton.png": url, '"143e-4fa5647f1c100"': etag,
            "Mon, 26 May 2014 23:53:08 GMT": last_modified, "5182": str(length)}
    for index, value in enumerate(objects):
        if isinstance(value, str) and value in swap:
            objects[index] = swap[value]
    objects[7] = status
    if etag is None or last_modified is None:
        # Drop the header entries whose value was replaced by None.
        table = objects[8]
        keep = [(k, v) for k, v in zip(table["NS.keys"], table["NS.objects"]) if objects[v.data] is not None]
        table["NS.keys"] = [k for k, _ in keep]
        table["NS.objects"] = [v for _, v in keep]
        for index, value in enumerate(objects):
            if value is None:
                objects[index] = "unused"
    plist["$top"] = {"root": UID(1)}
    return plistlib.dumps(plist, fmt=plistlib.FMT_BINARY, sort_keys=False)


def create(db, version, extra_column):
    columns = COLUMNS + ([("future_column", "text")] if extra_column else [])
    body = ", ".join(f"{name} {kind}" for name, kind in columns)
    db.execute(f"CREATE TABLE session_tasks ({body}, UNIQUE(identifier, session_id))")
    if version >= 3:
        db.execute("CREATE TABLE sessions (bundle_id text NOT NULL, session_id text NOT NULL, options blob, "
                   "configuration blob, UNIQUE(bundle_id, session_id))")
    db.execute(f"PRAGMA user_version = {version}")


def date_archive_dictionary(entries):
    """An NSDictionary archive whose values are NSDates (("date", seconds since 2001)), strings or booleans."""
    objects = Objects()
    uid = objects.reserve()
    keys = [objects.add(key) for key, _ in entries]
    values = []
    for _, value in entries:
        if isinstance(value, tuple) and value[0] == "date":
            values.append(objects.add({"NS.time": value[1], "$class": objects.cls("NSDate", "NSObject")}))
        else:
            values.append(objects.add(value))
    objects.objects[uid.data] = {"NS.keys": keys, "NS.objects": values, "$class": objects.cls("NSDictionary", "NSObject")}
    return archive(objects.objects)


def configuration_archive(identifier):
    """An NSURLSessionConfiguration archive with a few scalar fields (their keys are not in the spec)."""
    objects = Objects()
    uid = objects.reserve()
    objects.objects[uid.data] = {"identifier": objects.add(identifier), "discretionary": True, "timeoutIntervalForRequest": 60.0,
                                 "$class": objects.cls("NSURLSessionConfiguration", "NSObject")}
    return archive(objects.objects)


def insert_sessions(db):
    """The sessions of schema version 3: one whole, one whose options are not an archive."""
    db.execute("INSERT INTO sessions VALUES (?, ?, ?, ?)", (
        "com.example.player", "com.example.player.background",
        date_archive_dictionary([("NSURLSessionLastDisconnectDateKey", ("date", 786_000_500.0)),
                                 ("NDBackgroundSessionManagerKeySessionUUID", "6F1C2D3E-4A5B-4C6D-8E9F-0A1B2C3D4E5F"),
                                 ("NSURLSessionDelegateImplementsWillBeginDelayedRequestKey", True),
                                 ("SomethingElse", "x")]),
        configuration_archive("com.example.player.background")))
    db.execute("INSERT INTO sessions VALUES (?, ?, ?, ?)", ("com.example.news", "news-refresh", b"not an archive", None))


def uuid_bytes(n):
    return bytes([n & 0xFF] * 16)


def row(identifier, session, bundle, **values):
    values.setdefault("unique_identifier", uuid_bytes(identifier))
    values.setdefault("loading_priority", 0.5)
    values["identifier"] = identifier
    values["session_id"] = session
    values["bundle_id"] = bundle
    return values


def insert(db, values):
    names = list(values)
    marks = ", ".join("?" for _ in names)
    db.execute(f"INSERT INTO session_tasks ({', '.join(names)}) VALUES ({marks})", [values[n] for n in names])


def write_partial(root, relative, size):
    path = os.path.join(root, relative)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(bytes((i * 7 + 3) & 0xFF for i in range(size)))


def standard_rows(root):
    player_url = "https://media.example.com/podcasts/episode-42.mp3"
    rows = [
        row(1, "com.example.player.background", "com.example.player",
            task_kind=0, state=0, creation_time=786_000_000.5, task_description="episode-42",
            original_request=request_archive(ORIGINAL, player_url), current_request=request_archive(CURRENT, player_url),
            response=response_archive(player_url, '"143e-4fa5647f1c100"', "Mon, 26 May 2014 23:53:08 GMT", 5182),
            earliest_begin_date=0.0, count_of_bytes_received=4096, count_of_bytes_expected_to_receive=5182,
            path_to_download_task_file="/.nofollow/" + PLAYER_DOWNLOADS + "/CFNetworkDownload_d8md6s.tmp",
            has_started=1, qos=25),
        row(2, "com.example.player.background", "com.example.player",
            task_kind=0, state=1, suspend_count=1, creation_time=786_000_100.0, task_description="episode-43",
            original_request=request_archive(ORIGINAL, "https://media.example.com/podcasts/episode-43.mp3"),
            earliest_begin_date=1_790_000_000.0,
            error=error_archive("NSURLErrorDomain", -1001,
                                [("NSLocalizedDescription", "The request timed out."),
                                 ("NSErrorFailingURLKey", "URL:https://media.example.com/podcasts/episode-43.mp3"),
                                 ("_kCFStreamErrorCodeKey", -2102)],
                                ("kCFErrorDomainCFNetwork", -1001, [("_kCFStreamErrorDomainKey", 4)])),
            download_file_url=url_archive("file:///.nofollow/" + PLAYER_DOWNLOADS + "/CFNetworkDownload_AbC123.tmp"),
            count_of_bytes_received=1000, count_of_bytes_expected_to_receive=-1),
        row(1, "news-refresh", "com.example.news",
            task_kind=2, state=3, creation_time=786_000_200.25,
            original_request=request_archive(ORIGINAL, "https://news.example.com/feed.json"),
            response=response_archive("https://news.example.com/feed.json", None, None, 0, status=404),
            count_of_bytes_received=0, count_of_bytes_expected_to_receive=0),
    ]
    write_partial(root, PLAYER_DOWNLOADS + "/CFNetworkDownload_d8md6s.tmp", 4096)
    return rows


def hostile_rows():
    url = "https://evil.example.com/x"
    return [
        row(10, "evil", "com.example.evil", task_kind=0, state=0, creation_time=0.0,
            original_request=request_archive(ORIGINAL, url),
            path_to_download_task_file="/.nofollow/private/var/../../../etc/passwd"),
        row(11, "evil", "com.example.evil", task_kind=0, state=0,
            original_request=b"\x00" * (10 << 20)),
        row(12, "evil", "com.example.evil", task_kind=0, state=0,
            original_request=request_archive(ORIGINAL, url), error=cyclic_error_archive()),
        # A text column holding a blob: the description.
        row(13, "evil", "com.example.evil", task_kind=0, state=0, task_description=b"\xff\xfe not text",
            original_request=request_archive(ORIGINAL, url)),
        # And the reverse: the original request (a blob column) holding text.
        row(14, "evil", "com.example.evil", task_kind=0, state=0, original_request="bplist00 as text"),
    ]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("root")
    parser.add_argument("--version", type=int, default=3)
    parser.add_argument("--scenario", default="standard", choices=["standard", "hostile", "serve", "bench"])
    parser.add_argument("--rows", type=int, default=10_000)
    parser.add_argument("--url")
    parser.add_argument("--etag")
    parser.add_argument("--last-modified")
    parser.add_argument("--received", type=int, default=0)
    parser.add_argument("--expected", type=int, default=-1)
    parser.add_argument("--partial-bytes", help="a file whose first --received bytes are the partial file")
    # wal-only: nothing checkpointed, the tables created in the WAL (the main file holds only its
    # header page); empty-main: the same with the main file empty.
    parser.add_argument("--layout", default="checkpointed", choices=["checkpointed", "wal-only", "empty-main"])
    args = parser.parse_args()

    path = os.path.join(args.root, LEDGER)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(path + suffix):
            os.remove(path + suffix)
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA wal_autocheckpoint=0")
    create(db, args.version, extra_column=args.version not in (2, 3))
    if args.layout == "checkpointed":
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")

    if args.scenario == "serve":
        name = "CFNetworkDownload_Serve1.tmp"
        with open(args.partial_bytes, "rb") as f:
            partial = f.read()[: args.received]
        os.makedirs(os.path.join(args.root, PLAYER_DOWNLOADS), exist_ok=True)
        with open(os.path.join(args.root, PLAYER_DOWNLOADS, name), "wb") as f:
            f.write(partial)
        rows = [row(7, "com.example.player.background", "com.example.player",
                    task_kind=0, state=1, creation_time=786_000_000.0, task_description="served",
                    original_request=request_archive(ORIGINAL, args.url),
                    current_request=request_archive(CURRENT, args.url),
                    response=response_archive(args.url, args.etag, args.last_modified, args.expected),
                    count_of_bytes_received=args.received, count_of_bytes_expected_to_receive=args.expected,
                    path_to_download_task_file="/.nofollow/" + PLAYER_DOWNLOADS + "/" + name)]
    elif args.scenario == "bench":
        original = request_archive(ORIGINAL, "https://media.example.com/podcasts/bench.mp3")
        current = request_archive(CURRENT, "https://media.example.com/podcasts/bench.mp3")
        response = response_archive("https://media.example.com/podcasts/bench.mp3", '"bench"', "Mon, 26 May 2014 23:53:08 GMT", 5182)
        error = error_archive("NSURLErrorDomain", -1005, [("NSLocalizedDescription", "The network connection was lost.")])
        rows = [row(i, f"session-{i % 50}", f"com.example.app{i % 200}", task_kind=0, state=i % 4,
                    creation_time=786_000_000.0 + i, task_description=f"task {i}",
                    original_request=original, current_request=current, response=response,
                    error=error if i % 3 == 0 else None, count_of_bytes_received=i, count_of_bytes_expected_to_receive=5182,
                    path_to_download_task_file=f"/.nofollow/{PLAYER_DOWNLOADS}/CFNetworkDownload_{i:06d}.tmp")
                for i in range(args.rows)]
    else:
        rows = standard_rows(args.root)
        if args.scenario == "hostile":
            rows += hostile_rows()

    # All but the last row are checkpointed into the main file; the last stays in the WAL.
    db.execute("BEGIN")
    for values in rows[:-1]:
        insert(db, values)
    db.execute("COMMIT")
    if args.layout == "checkpointed":
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    insert(db, rows[-1])
    if args.version not in (2, 3):
        db.execute("UPDATE session_tasks SET future_column = 'later'")
    if args.version >= 3:
        insert_sessions(db)
    if args.layout == "empty-main":
        with open(path, "r+b") as f:
            f.truncate(0)
    sys.stdout.flush()
    os._exit(0)


if __name__ == "__main__":
    main()
