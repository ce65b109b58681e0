#!/usr/bin/env python3
"""Builds nsurlsessiond's older ledger (keyed archives, macOS 10.11-10.13) for resumetool's tests.

The layout is the one of ../shared/spec/forensic-formats.md §1.1 and the field names those of
CFNetwork's -[__NSCFURLSessionTaskInfo initWithCoder:] (spec source CFN): a Mac home's
Library/com.apple.nsurlsessiond/ holds bundles.plist (NSDictionary bundle ID -> NSNumber),
<SHA-1 of bundle ID>/sessions.plist (NSArray of session IDs) and
<SHA-1 of bundle ID>/<SHA-1 of session ID>/tasks.plist (NSMutableDictionary task number ->
__NSCFURLSessionTaskInfo), all written here with plistlib the way NSKeyedArchiver lays them out.
Requests and responses are Apple's own archives from ../shared/samples/real/ (as make_ledger.py
uses them), with their URL and validators replaced and their objects moved into the task list's
graph. Only structure is kept: names, URLs and tokens are made up.

    make_task_archive.py HOME [--scenario standard|hostile|many]

standard: two tasks of com.example.player (one with its partial file under
Library/Caches/com.apple.nsurlsessiond/Downloads/, one not written) and one of com.example.mail
whose task names neither its bundle nor its session. hostile: the player's list holds a task whose
request refers to itself (a cycle), one whose downloadFileURL climbs out with '..', one whose
partial file is outside any home, and one whose value is not a task; the mail session's
tasks.plist is not a keyed archive. many: one session whose list holds 10,001 tasks. bomb: 9,000
tasks that all share one task whose description is 20 levels of arrays each holding the one below
twice (2^20 values), and one task whose description expands to 8,191 values given 600 times.
"""
import argparse
import hashlib
import os
import plistlib
import sys
from plistlib import UID

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_ledger  # noqa: E402

DAEMON = "Library/com.apple.nsurlsessiond"
DOWNLOADS = "Library/Caches/com.apple.nsurlsessiond/Downloads/com.example.player"
DEVICE_HOME = "/Users/examiner"


def sha1(text):
    return hashlib.sha1(text.encode()).hexdigest().upper()


def embed(objects, data):
    """Moves a stand-alone archive's objects into `objects`, UIDs rebased; the root's new UID."""
    plist = plistlib.loads(data)
    base = len(objects.objects) - 1

    def rebase(value):
        if isinstance(value, UID):
            return value if value.data == 0 else UID(value.data + base)
        if isinstance(value, list):
            return [rebase(v) for v in value]
        if isinstance(value, dict):
            return {k: rebase(v) for k, v in value.items()}
        return value

    for value in plist["$objects"][1:]:
        objects.objects.append(rebase(value))
    return rebase(next(iter(plist["$top"].values())))


def task_info(objects, identifier, url=None, download=None, received=None, expected=None, state=1,
              bundle=None, session=None, headers=None, etag='"v1-abc"', description=None):
    uid = objects.reserve()
    fields = {"identifier": identifier, "taskKind": 0, "creationTime": 500000000.0, "state": state,
              "suspendCount": 1, "uniqueIdentifier": objects.add("0F1E2D3C-4B5A-6978-8796-A5B4C3D2E1F%d" % (identifier % 10))}
    if description is not None:
        fields["taskDescription"] = objects.add(description)
    if url is not None:
        request = make_ledger.request_archive(make_ledger.CURRENT, url)
        if headers:
            plist = plistlib.loads(request)
            request = add_headers(plist, headers)
        fields["originalRequest"] = embed(objects, request)
        fields["response"] = embed(objects, make_ledger.response_archive(url, etag, "Tue, 01 Mar 2016 10:00:00 GMT", expected or 0))
    if download is not None:
        fields["downloadFileURL"] = objects.url(download)
    if received is not None:
        fields["countOfBytesReceived"] = received
    if expected is not None:
        fields["countOfBytesExpectedToReceive"] = expected
    if bundle is not None:
        fields["bundleID"] = objects.add(bundle)
    if session is not None:
        fields["sessionID"] = objects.add(session)
    fields["$class"] = objects.cls("__NSCFURLSessionTaskInfo", "NSObject")
    objects.objects[uid.data] = fields
    return uid


def add_headers(plist, headers):
    """The request archive with its header table's entries replaced by `headers`."""
    objects = plist["$objects"]
    for value in objects:
        if isinstance(value, dict) and "NS.keys" in value and any(
                isinstance(objects[k.data], str) and objects[k.data].lower() == "accept" for k in value["NS.keys"]):
            keys, values = [], []
            for name, text in headers:
                objects.append(name)
                keys.append(UID(len(objects) - 1))
                objects.append(text)
                values.append(UID(len(objects) - 1))
            value["NS.keys"] = keys
            value["NS.objects"] = values
            return plistlib.dumps(plist, fmt=plistlib.FMT_BINARY, sort_keys=False)
    raise SystemExit("no header table in the request archive")


def task_list(entries):
    """`entries`: (key, builder(objects) -> UID) pairs; the list as a keyed archive."""
    objects = make_ledger.Objects()
    root = objects.reserve()
    keys, values = [], []
    for key, build in entries:
        keys.append(objects.add(key))
        values.append(build(objects))
    objects.objects[root.data] = {"NS.keys": keys, "NS.objects": values,
                                  "$class": objects.cls("NSMutableDictionary", "NSDictionary", "NSObject")}
    return make_ledger.archive(objects.objects)


def names_dictionary(names):
    objects = make_ledger.Objects()
    objects.dictionary([(name, False) for name in names])
    return make_ledger.archive(objects.objects)


def names_array(names):
    objects = make_ledger.Objects()
    root = objects.reserve()
    values = [objects.add(name) for name in names]
    objects.objects[root.data] = {"NS.objects": values, "$class": objects.cls("NSArray", "NSObject")}
    return make_ledger.archive(objects.objects)


def write(home, relative, data):
    path = os.path.join(home, relative)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)


PLAYER, PLAYER_SESSION = "com.example.player", "com.example.player.background"
MAIL, MAIL_SESSION = "com.example.mail", "com.example.mail.sync"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("home")
    parser.add_argument("--scenario", default="standard", choices=["standard", "hostile", "many", "bomb"])
    args = parser.parse_args()
    home = args.home
    player = os.path.join(DAEMON, sha1(PLAYER), sha1(PLAYER_SESSION))
    mail = os.path.join(DAEMON, sha1(MAIL), sha1(MAIL_SESSION))
    write(home, os.path.join(DAEMON, "bundles.plist"), names_dictionary([PLAYER, MAIL]))
    write(home, os.path.join(DAEMON, sha1(PLAYER), "sessions.plist"), names_array([PLAYER_SESSION]))
    write(home, os.path.join(DAEMON, sha1(MAIL), "sessions.plist"), names_array([MAIL_SESSION]))
    write(home, os.path.join(player, "configuration.plist"), names_array([]))
    write(home, os.path.join(player, "Uploads", "CFNetworkUpload_q1w2e3.tmp"), b"upload body")
    partial = DEVICE_HOME + "/" + DOWNLOADS + "/CFNetworkDownload_Xy12Ab.tmp"
    gone = DEVICE_HOME + "/" + DOWNLOADS + "/CFNetworkDownload_Gone99.tmp"
    write(home, DOWNLOADS + "/CFNetworkDownload_Xy12Ab.tmp", b"\x00" * 4096)
    if args.scenario == "bomb":
        objects = make_ledger.Objects()
        root = objects.reserve()
        array = objects.cls("NSArray", "NSObject")

        def doubling(levels):
            level = objects.add("x")
            for _ in range(levels):
                uid = objects.reserve()
                objects.objects[uid.data] = {"NS.objects": [level, level], "$class": array}
                level = uid
            return level

        klass = objects.cls("__NSCFURLSessionTaskInfo", "NSObject")
        huge, large = objects.reserve(), objects.reserve()
        objects.objects[huge.data] = {"identifier": 1, "taskDescription": doubling(20), "$class": klass}
        objects.objects[large.data] = {"identifier": 2, "taskDescription": doubling(12), "$class": klass}
        keys = [objects.add(n) for n in range(1, 9_601)]
        objects.objects[root.data] = {"NS.keys": keys, "NS.objects": [huge] * 9_000 + [large] * 600,
                                      "$class": objects.cls("NSMutableDictionary", "NSDictionary", "NSObject")}
        write(home, os.path.join(player, "tasks.plist"), make_ledger.archive(objects.objects))
        return
    if args.scenario == "many":
        def small(objects, n=[0]):
            n[0] += 1
            return task_info(objects, n[0], state=1)
        write(home, os.path.join(player, "tasks.plist"), task_list([(n, small) for n in range(1, 10_002)]))
        return
    player_tasks = [
        (7, lambda o: task_info(o, 7, url="https://media.example.com/episodes/41.mp4", download="file://" + partial,
                                received=4096, expected=10000, bundle=PLAYER, session=PLAYER_SESSION,
                                description="episode 41",
                                headers=[("Accept", "*/*"), ("Authorization", "Bearer secret-token-1234"),
                                         ("X-Client", "player/2.0")])),
        (9, lambda o: task_info(o, 9, url="https://media.example.com/episodes/42.mp4", download="file://" + gone,
                                received=0, expected=-1, state=0, bundle=PLAYER, session=PLAYER_SESSION)),
    ]
    mail_tasks = [
        (3, lambda o: task_info(o, 3, url="https://mail.example.com/sync", received=0, expected=-1, state=3)),
    ]
    if args.scenario == "hostile":
        def cyclic(objects):
            uid = task_info(objects, 11, bundle=PLAYER, session=PLAYER_SESSION)
            objects.objects[uid.data]["originalRequest"] = uid
            request = objects.reserve()
            objects.objects[request.data] = {"$0": 2, "$1": UID(request.data), "$class": objects.cls("NSURLRequest", "NSObject")}
            objects.objects[uid.data]["originalRequest"] = request
            return uid
        player_tasks += [
            (11, cyclic),
            (12, lambda o: task_info(o, 12, url="https://media.example.com/x", download="file://" + DEVICE_HOME + "/../../etc/passwd",
                                     received=1, expected=2, bundle=PLAYER, session=PLAYER_SESSION)),
            (13, lambda o: task_info(o, 13, url="https://media.example.com/y", download="file:///etc/passwd",
                                     received=1, expected=2, bundle=PLAYER, session=PLAYER_SESSION)),
            (14, lambda o: o.add("not a task")),
        ]
        write(home, os.path.join(mail, "tasks.plist"), plistlib.dumps({"tasks": [1, 2]}, fmt=plistlib.FMT_BINARY))
    else:
        write(home, os.path.join(mail, "tasks.plist"), task_list(mail_tasks))
    write(home, os.path.join(player, "tasks.plist"), task_list(player_tasks))


if __name__ == "__main__":
    main()
