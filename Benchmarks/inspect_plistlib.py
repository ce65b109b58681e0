#!/usr/bin/env python3
"""The Python side of the inspect benchmark (Benchmarks/compare.sh): what `resumetool inspect --json`
reports, extracted with the standard library's plistlib.

Usage: inspect_plistlib.py BLOB... (or a directory of blobs); prints one JSON array.

Reads all four containers: XML and binary property lists (plistlib detects which), and keyed
archives of either kind, unarchived just enough to get the resume dictionary and the two archived
NSURLRequests (URL, method, headers, timeout, cache policy, body, layout). What it does NOT do that
resumetool does: the validator's findings and its error reporting; so it is the cheaper of the two.
"""

import base64
import json
import os
import plistlib
import sys

PREFIX = "NSURLSessionResume"
FIELDS = [
    ("infoVersion", "NSURLSessionResumeInfoVersion"),
    ("downloadURL", "NSURLSessionDownloadURL"),
    ("bytesReceived", "NSURLSessionResumeBytesReceived"),
    ("tempFileName", "NSURLSessionResumeInfoTempFileName"),
    ("localPath", "NSURLSessionResumeInfoLocalPath"),
    ("entityTag", "NSURLSessionResumeEntityTag"),
    ("serverDownloadDate", "NSURLSessionResumeServerDownloadDate"),
    ("byteRange", "NSURLSessionResumeByteRange"),
]
REQUESTS = [("currentRequest", "NSURLSessionResumeCurrentRequest"),
            ("originalRequest", "NSURLSessionResumeOriginalRequest")]
KNOWN = {key for _, key in FIELDS + REQUESTS}


class Archive:
    """Resolves UIDs of an NSKeyedArchiver archive."""

    def __init__(self, top):
        self.objects = top["$objects"]
        (self.root,) = top["$top"].values()

    def get(self, value):
        while True:
            if isinstance(value, plistlib.UID):
                value = self.objects[value.data]
            elif isinstance(value, dict) and len(value) == 1 and "CF$UID" in value:
                # plistlib reads the XML spelling of a UID as a plain dictionary.
                value = self.objects[value["CF$UID"]]
            else:
                break
        return None if value == "$null" else value

    def decode(self, value, depth=0):
        """Plain values as they are; NSDictionary / NSArray / NSString / NSData / NSURL unarchived."""
        value = self.get(value)
        if depth > 64 or not isinstance(value, dict) or "$class" not in value:
            return value
        name = self.get(value["$class"])["$classname"]
        if "NS.keys" in value:
            return {self.decode(k, depth + 1): self.decode(v, depth + 1)
                    for k, v in zip(value["NS.keys"], value["NS.objects"])}
        if "NS.objects" in value:
            return [self.decode(v, depth + 1) for v in value["NS.objects"]]
        if "NS.string" in value:
            return value["NS.string"]
        if "NS.bytes" in value or "NS.data" in value:
            return value.get("NS.bytes", value.get("NS.data"))
        if name == "NSURL":
            base, relative = self.decode(value.get("NS.base")), self.decode(value.get("NS.relative"))
            return relative if base is None else base + relative
        return value


def request(blob):
    archive = Archive(plistlib.loads(blob))
    obj = archive.get(archive.root)
    secure = "__nsurlrequest_proto_prop_obj_0" in obj
    count = archive.get(obj.get("$2")) or 0

    def item(i):
        key = f"__nsurlrequest_proto_prop_obj_{i}" if secure else f"${i + 3}"
        return archive.decode(obj.get(key)) if i < count else None

    headers = item(19) or {}
    body = item(20)
    return {
        "url": item(1),
        "method": item(18) or "GET",
        "headers": {k: v for k, v in headers.items() if k != "__hhaa__"},
        "timeoutInterval": item(2),
        "cachePolicy": item(3),
        "bodyBase64": base64.b64encode(body).decode() if body is not None else None,
        "layout": "secure" if secure else "legacy",
    }


def short(value):
    kinds = [(bool, "boolean"), (int, "integer"), (float, "real"), (str, "string"), (bytes, "data"),
             (list, "array"), (dict, "dictionary")]
    kind = next((name for t, name in kinds if isinstance(value, t)), type(value).__name__)
    if isinstance(value, bytes):
        value = f"{len(value)} bytes"
    elif isinstance(value, (list, dict)):
        value = f"{len(value)} items"
    elif isinstance(value, str) and len(value) > 200:
        value = value[:200] + "…"
    elif not isinstance(value, (bool, int, float, str)):
        value = str(value)
    return {"type": kind, "value": value}


def inspect(path):
    with open(path, "rb") as f:
        data = f.read()
    top = plistlib.loads(data)
    xml = not data.startswith(b"bplist")
    if isinstance(top, dict) and "$archiver" in top:
        container = "keyed-archive-xml" if xml else "keyed-archive"
        top = Archive(top).decode(Archive(top).root)
    else:
        container = "xml" if xml else "binary"
    report = {"name": os.path.basename(path), "container": container}
    for name, key in FIELDS:
        report[name] = top.get(key)
    for name, key in REQUESTS:
        report[name] = request(top[key]) if key in top else None
    report["otherKeys"] = {k: short(v) for k, v in top.items() if k not in KNOWN}
    return report


def main():
    paths = []
    for argument in sys.argv[1:]:
        if os.path.isdir(argument):
            paths += sorted(os.path.join(argument, n) for n in os.listdir(argument))
        else:
            paths.append(argument)
    json.dump([inspect(p) for p in paths], sys.stdout, ensure_ascii=False)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
