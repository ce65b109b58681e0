#!/usr/bin/env python3
"""Writes the upload resume blobs of this folder with Python's plistlib, a writer independent of
this package's own.

An upload blob (URLSession, iOS 17+/macOS 14+) is an NSKeyedArchiver binary property list of one
NSMutableDictionary whose first 8 bytes are XOR-ed with a constant of Apple's that has not been
published (`kResumeDataMagicBytes`). No real blob has been published either, so these are built
from what decompiled CFNetwork writes (the keys, their types and order) and each is masked with a
stand-in constant, named in its file name's table below; a reader needs no constant (it writes
`bplist00` over the first 8 bytes). The request archive copies the layout of the real iOS request
archives in Samples/nwurlsession-ios17.resumedata (22 items, Network-framework form).

Run from anywhere: `python3 make_upload_blobs.py [FOLDER]` (default: this script's folder).
UploadResumeDataTests runs it into a temporary folder and checks the committed files are its output.
"""
import plistlib
import sys
from pathlib import Path

STAND_IN_MASK = b"RUFH-mk!"   # not Apple's: the real constant is unknown
TED_LASSO = b"TedLasso"       # the Network framework's download mask, in case uploads share it


class URL:
    def __init__(self, text):
        self.text = text


class Request:
    def __init__(self, url, method, headers):
        self.url, self.method, self.headers = url, method, headers


class Archive:
    def __init__(self):
        self.objects = ["$null"]
        self.classes = {}

    def add(self, value):
        self.objects.append(value)
        return plistlib.UID(len(self.objects) - 1)

    def cls(self, name, chain):
        if name not in self.classes:
            self.classes[name] = self.add({"$classname": name, "$classes": chain})
        return self.classes[name]

    def encode(self, value):
        if value is None:
            return plistlib.UID(0)
        if isinstance(value, URL):
            rel = self.add(value.text)
            return self.add({"NS.base": plistlib.UID(0), "NS.relative": rel, "$class": self.cls("NSURL", ["NSURL", "NSObject"])})
        if isinstance(value, Request):
            return self.request(value)
        if isinstance(value, (bytes, bytearray)):
            # NSData archives as a plain data object; NSKeyedArchiver writes it inline in $objects.
            return self.add(bytes(value))
        if isinstance(value, dict):
            return self.dictionary(value)
        return self.add(value)

    def dictionary(self, entries):
        placeholder = self.add(None)
        keys = [self.add(k) for k in entries]
        values = [self.encode(v) for v in entries.values()]
        index = placeholder.data
        self.objects[index] = {"NS.keys": keys, "NS.objects": values,
                               "$class": self.cls("NSMutableDictionary", ["NSMutableDictionary", "NSDictionary", "NSObject"])}
        return placeholder

    def request(self, request):
        placeholder = self.add(None)
        false, true = self.add(False), self.add(True)
        zero, zero_real, minus_one = self.add(0), self.add(0.0), self.add(-1)
        items = [false, self.encode(URL(request.url)), self.add(60.0), zero, plistlib.UID(0), true, self.add(4),
                 plistlib.UID(0), plistlib.UID(0), true, false, zero, zero_real, zero_real, zero, minus_one,
                 plistlib.UID(0), self.add(2), self.add(request.method), self.dictionary(request.headers),
                 plistlib.UID(0), plistlib.UID(0)]
        obj = {"$0": 2, "$1": 9, "$2": len(items)}
        for i, item in enumerate(items):
            obj["__nsurlrequest_proto_prop_obj_%d" % i] = item
        obj.update({"__nsurlrequest_proto_props": plistlib.UID(0), "startTimeoutTime": 0.0,
                    "requiresShortConnectionTimeout": False, "payloadTransmissionTimeout": 0.0,
                    "allowedProtocolTypes": 0, "$class": self.cls("NSURLRequest", ["NSURLRequest", "NSObject"])})
        self.objects[placeholder.data] = obj
        return placeholder


def blob(entries, mask):
    archive = Archive()
    root = archive.dictionary(entries)
    document = {"$version": 100000, "$archiver": "NSKeyedArchiver", "$top": {"root": root}, "$objects": archive.objects}
    data = bytearray(plistlib.dumps(document, fmt=plistlib.FMT_BINARY, sort_keys=False))
    for i in range(min(8, len(data))):
        data[i] ^= mask[i]
    return bytes(data)


REQUEST = Request("https://uploads.example.com/photos", "POST",
                  {"Content-Type": "image/heic", "Authorization": "Bearer s3cr3t-t0k3n", "User-Agent": "Photos/1 CFNetwork/3826.400.120 Darwin/24.3.0"})
RESUME_URL = URL("https://uploads.example.com/resumable_upload/8c0f4e2a-51d7")
FILE = URL("file:///private/var/mobile/Containers/Data/Application/6D1E4F7A-2B3C-4D5E-8F90-A1B2C3D4E5F6/tmp/IMG_0042.heic")
BODY = bytes((i * 37 + 11) % 256 for i in range(1000))

BLOBS = {
    # iOS 18.2+ (interop 6): a file body, as a photo uploader makes it.
    "upload-file-v6.resumedata": ({"draftVersion": "6", "resumeURL": RESUME_URL, "originalRequest": REQUEST,
                                   "bodyType": 1, "uploadFile": FILE}, STAND_IN_MASK),
    # iOS 18.0 (interop 5): a data body, the whole body inside the blob; masked with TedLasso.
    "upload-data-v5.resumedata": ({"draftVersion": "5", "resumeURL": RESUME_URL, "originalRequest": REQUEST,
                                   "bodyType": 0, "uploadData": BODY}, TED_LASSO),
    # iOS 17 (interop 3): a stream body of known length.
    "upload-stream-v3.resumedata": ({"draftVersion": "3", "resumeURL": RESUME_URL, "originalRequest": REQUEST,
                                     "bodyType": 2, "streamLength": 123456789}, STAND_IN_MASK),
    # nsurlsessiond's copy (session_tasks.resumable_upload_data): no originalRequest.
    "upload-taskinfo-v6.resumedata": ({"draftVersion": "6", "resumeURL": RESUME_URL, "bodyType": 1, "uploadFile": FILE},
                                      STAND_IN_MASK),
    # What CFNetwork's reader refuses: an unknown draft, a file: resume URL, a file body without its file.
    "upload-refused.resumedata": ({"draftVersion": "99", "resumeURL": URL("file:///etc/passwd"), "originalRequest": REQUEST,
                                   "bodyType": 1}, STAND_IN_MASK),
    # An https request continued at an http resume URL: CFNetwork 18.2+ refuses the downgrade.
    "upload-downgrade.resumedata": ({"draftVersion": "6", "resumeURL": URL("http://uploads.example.com/resumable_upload/8c0f4e2a-51d7"),
                                     "originalRequest": REQUEST, "bodyType": 0, "uploadData": b"abc"}, STAND_IN_MASK),
}


def main():
    folder = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parent
    for name, (entries, mask) in BLOBS.items():
        (folder / name).write_bytes(blob(entries, mask))


if __name__ == "__main__":
    main()
