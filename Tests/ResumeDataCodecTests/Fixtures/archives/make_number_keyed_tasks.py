# Writes number-keyed-tasks.bplist: an NSKeyedArchiver archive shaped as nsurlsessiond's
# tasks.plist (macOS 10.11-10.13): the root an NSMutableDictionary from NSNumber task number to a
# __NSCFURLSessionTaskInfo. Built by hand with Python's plistlib (plistlib.UID for the references),
# as Foundation's NSKeyedArchiver lays such an archive out; no value comes from a real device.
import plistlib, sys

objects = [
    "$null",
    # 1: the root dictionary, keys 93 and 94
    {"NS.keys": [plistlib.UID(2), plistlib.UID(3)], "NS.objects": [plistlib.UID(4), plistlib.UID(9)], "$class": plistlib.UID(11)},
    93,
    94,
    # 4: task 93
    {"$class": plistlib.UID(8), "uniqueIdentifier": plistlib.UID(5), "state": 1, "countOfBytesReceived": 524288,
     "downloadFileURL": plistlib.UID(6)},
    "8C1F2A90-6B7D-4E3C-9A51-2F0D3B4C5E6F",
    {"NS.base": plistlib.UID(0), "NS.relative": plistlib.UID(7), "$class": plistlib.UID(12)},
    "file:///Users/examiner/Library/Caches/com.apple.nsurlsessiond/Downloads/com.example.app/CFNetworkDownload_Ab12Cd.tmp",
    {"$classname": "__NSCFURLSessionTaskInfo", "$classes": ["__NSCFURLSessionTaskInfo", "NSObject"]},
    # 9: task 94
    {"$class": plistlib.UID(8), "uniqueIdentifier": plistlib.UID(10), "state": 3, "countOfBytesReceived": 0,
     "downloadFileURL": plistlib.UID(0)},
    "0D7E5B21-3C4A-4F68-8B90-1A2B3C4D5E6F",
    {"$classname": "NSMutableDictionary", "$classes": ["NSMutableDictionary", "NSDictionary", "NSObject"]},
    {"$classname": "NSURL", "$classes": ["NSURL", "NSObject"]},
]
archive = {"$archiver": "NSKeyedArchiver", "$version": 100000, "$top": {"root": plistlib.UID(1)}, "$objects": objects}
with open(sys.argv[1] if len(sys.argv) > 1 else "number-keyed-tasks.bplist", "wb") as f:
    plistlib.dump(archive, f, fmt=plistlib.FMT_BINARY, sort_keys=False)
