#!/usr/bin/env python3
"""Checks the golden files in Expected/ with readers that are not resumetool's own.

The golden files are the tool's own output, so comparing with them only proves that nothing
changed. This script checks what they say against the inputs they were made from, read by
Python's standard library (plistlib, json, csv, html.parser):

  * every JSON golden parses strictly (no NaN, no duplicate key) and has its report's shape;
  * inspect/SAMPLE.json and .txt: the download URL, byte count, temp file name, entity tag and
    info version are the blob's own values as plistlib reads them (through NSKeyedArchiver's
    UIDs, the Network framework's 8 masked bytes and WebKit's wrapper), and a null field is a key
    the blob does not have;
  * archive/NAME.json and .txt: archiver, version, top key and object count are the archive's,
    and every object the report shows by number is that object of `$objects`;
  * plist/*.txt: the printed counts and the scalar values of every dictionary are the plist's;
  * scan/renderers.*: the JSON lines, CSV, TSV and timeline agree on their rows, and the HTML
    page parses, balances its tags and shows the hostile strings escaped, never as markup.

    golden_cross_check.py [--expected DIR] [--samples DIR] [--fixtures DIR]

Prints one line per file checked and the count; exit 0 when every check holds, 1 otherwise.
Golden files that no independent reader can check (scan/evidence/*.txt: prose over generated
evidence) are named as not checked.
"""
import argparse
import csv
import html.parser
import io
import json
import os
import plistlib
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

# The report's field -> the key Apple's blob keeps it under.
APPLE_KEYS = {
    "downloadURL": "NSURLSessionDownloadURL",
    "bytesReceived": "NSURLSessionResumeBytesReceived",
    "tempFileName": "NSURLSessionResumeInfoTempFileName",
    "entityTag": "NSURLSessionResumeEntityTag",
    "infoVersion": "NSURLSessionResumeInfoVersion",
    "localPath": "NSURLSessionResumeInfoLocalPath",
}
# inspect --json: each field and the JSON types it may have.
INSPECT_SHAPE = {
    "container": (str,), "infoVersion": (int, type(None)), "downloadURL": (str, type(None)),
    "bytesReceived": (int, type(None)), "tempFileName": (str, type(None)), "localPath": (str, type(None)),
    "entityTag": (str, type(None)), "serverDownloadDate": (str, type(None)), "byteRange": (str, dict, type(None)),
    "currentRequest": (dict, type(None)), "originalRequest": (dict, type(None)), "response": (dict, type(None)),
    "otherKeys": (dict,), "findings": (list,),
}
CONTAINERS = {"xml", "binary", "keyed-archive", "keyed-archive-xml", "nwurlsession", "nwurlsession-webkit"}


class Failures:
    def __init__(self):
        self.lines = []

    def check(self, condition, text):
        if not condition:
            self.lines.append(text)
        return condition


def strict_json(text):
    def no_constant(name):
        raise ValueError("not JSON: %s" % name)

    def no_duplicates(pairs):
        keys = [k for k, _ in pairs]
        if len(keys) != len(set(keys)):
            raise ValueError("duplicate key in %s" % keys)
        return dict(pairs)

    return json.loads(text, parse_constant=no_constant, object_pairs_hook=no_duplicates)


def uids(value):
    """XML archives spell a UID as a dictionary of one `CF$UID` integer, as binary ones cannot."""
    if isinstance(value, dict):
        if len(value) == 1 and isinstance(value.get("CF$UID"), int):
            return plistlib.UID(value["CF$UID"])
        return {k: uids(v) for k, v in value.items()}
    if isinstance(value, list):
        return [uids(v) for v in value]
    return value


def read_plist(data):
    """(value, unmasked): plistlib's reading, or of the bytes with `bplist00` written over the
    first 8 (the Network framework's masked blobs)."""
    try:
        return uids(plistlib.loads(data)), False
    except Exception:
        pass
    if len(data) > 8:
        try:
            return uids(plistlib.loads(b"bplist00" + data[8:])), True
        except Exception:
            pass
    return None, False


class Archive:
    """An NSKeyedArchiver property list, resolved through its UIDs."""

    def __init__(self, top):
        self.top = top
        self.objects = top["$objects"]

    @staticmethod
    def holds(value):
        return isinstance(value, dict) and value.get("$archiver") == "NSKeyedArchiver" and "$objects" in value

    def resolve(self, value, depth=0):
        if depth > 64:
            raise ValueError("too deep")
        if isinstance(value, plistlib.UID):
            value = self.objects[value.data]
        if isinstance(value, str) and value == "$null":
            return None
        if isinstance(value, dict):
            if "NS.keys" in value and "NS.objects" in value:
                return {self.resolve(k, depth + 1): self.resolve(v, depth + 1) for k, v in zip(value["NS.keys"], value["NS.objects"])}
            if "NS.objects" in value:
                return [self.resolve(v, depth + 1) for v in value["NS.objects"]]
            if "NS.string" in value:
                return value["NS.string"]
            if "NS.relative" in value:
                return self.resolve(value["NS.relative"], depth + 1)
            return {k: self.resolve(v, depth + 1) for k, v in value.items() if k != "$class"}
        return value

    def root(self):
        key = next(iter(self.top["$top"]))
        return self.resolve(self.top["$top"][key])


def scalars(value, found, depth=0):
    """Every string and integer in `value`, descending into data that is itself a property list
    (a request archive, WebKit's wrapped blob) and through keyed archives' UIDs."""
    if depth > 32:
        return found
    if Archive.holds(value):
        for item in value["$objects"]:
            scalars(item, found, depth + 1)
    elif isinstance(value, dict):
        for k, v in value.items():
            scalars(k, found, depth + 1)
            scalars(v, found, depth + 1)
    elif isinstance(value, list):
        for v in value:
            scalars(v, found, depth + 1)
    elif isinstance(value, (bytes, bytearray)):
        inner, _ = read_plist(bytes(value))
        if inner is not None:
            scalars(inner, found, depth + 1)
    elif isinstance(value, (str, int)) and not isinstance(value, bool):
        found.add(value)
    return found


def apple_dictionary(value):
    """The resume dictionary, when the blob has one under Apple's classic keys."""
    if Archive.holds(value):
        try:
            value = Archive(value).root()
        except (KeyError, IndexError, ValueError, TypeError, StopIteration):
            return None
    # The Network framework's blobs keep other keys (and WebKit wraps them): those are checked
    # through `scalars` instead.
    if isinstance(value, dict) and "NSURLSessionDownloadURL" in value:
        return value
    return None


def check_inspect(path, sample, failures):
    report = strict_json(open(path, encoding="utf-8").read())
    if not failures.check(isinstance(report, list) and len(report) == 1 and isinstance(report[0], dict),
                          "%s: not an array of one report" % path):
        return
    report = report[0]
    failures.check(set(report) == set(INSPECT_SHAPE), "%s: fields %s" % (path, sorted(set(report) ^ set(INSPECT_SHAPE))))
    for field, types in INSPECT_SHAPE.items():
        failures.check(isinstance(report.get(field), types), "%s: %s is %r" % (path, field, report.get(field)))
    failures.check(report.get("container") in CONTAINERS, "%s: container %r" % (path, report.get("container")))
    for finding in report.get("findings") or []:
        failures.check(isinstance(finding, dict) and isinstance(finding.get("code"), str) and finding.get("severity") in ("error", "warning", "info", "note"),
                       "%s: finding %r" % (path, finding))
    value, _ = read_plist(open(sample, "rb").read())
    if not failures.check(value is not None, "%s: plistlib cannot read %s" % (path, sample)):
        return
    classic = apple_dictionary(value)
    everything = scalars(value, set())
    for field, key in APPLE_KEYS.items():
        reported = report.get(field)
        if classic is not None and not (field == "localPath" and reported is not None):
            failures.check(classic.get(key) == reported,
                           "%s: %s is %r, the blob's %s is %r" % (path, field, reported, key, classic.get(key)))
        elif reported is not None and field != "localPath":
            failures.check(reported in everything, "%s: %s %r is nowhere in the blob" % (path, field, reported))
    # The text report says the same values.
    text_path = path[:-len(".json")] + ".txt"
    if os.path.exists(text_path):
        text = open(text_path, encoding="utf-8").read()
        for field in ("downloadURL", "tempFileName", "entityTag"):
            if report.get(field) is not None:
                failures.check(report[field] in text, "%s: %s %r is not in the text report" % (text_path, field, report[field]))
        if report.get("bytesReceived") is not None:
            failures.check("{:,} bytes".format(report["bytesReceived"]) in text,
                           "%s: %d bytes is not in the text report" % (text_path, report["bytesReceived"]))
        failures.check(text.startswith(os.path.basename(sample) + ":\n") or text.startswith(os.path.basename(sample) + ":"),
                       "%s: does not start with the blob's name" % text_path)


def check_archive_objects(node, objects, path, failures, depth=0):
    """Each node of `archive --json` that names an object (`uid`) shows that object."""
    if depth > 64:
        return
    if isinstance(node, dict):
        uid = node.get("uid")
        if isinstance(uid, int) and "type" in node and "value" in node:
            if failures.check(0 <= uid < len(objects), "%s: uid %d outside $objects" % (path, uid)):
                wanted = objects[uid]
                kind, value = node["type"], node["value"]
                if kind in ("string", "integer", "boolean"):
                    failures.check(wanted == value and type(wanted) is type(value),
                                   "%s: object %d is %r, the report says %s %r" % (path, uid, wanted, kind, value))
                elif kind == "real":
                    failures.check(isinstance(wanted, float) and (wanted == value or wanted != wanted),
                                   "%s: object %d is %r, the report says real %r" % (path, uid, wanted, value))
        if isinstance(uid, int) and "class" in node and 0 <= uid < len(objects) and isinstance(objects[uid], dict):
            klass = objects[uid].get("$class")
            if isinstance(klass, plistlib.UID) and isinstance(objects[klass.data], dict):
                failures.check(objects[klass.data].get("$classname") == node["class"],
                               "%s: object %d's class is %r, the report says %r" % (path, uid, objects[klass.data].get("$classname"), node["class"]))
        for v in node.values():
            check_archive_objects(v, objects, path, failures, depth + 1)
    elif isinstance(node, list):
        for v in node:
            check_archive_objects(v, objects, path, failures, depth + 1)


def check_archive(path, source, failures):
    value, unmasked = read_plist(open(source, "rb").read())
    if isinstance(value, dict) and not Archive.holds(value):
        # WebKit's wrapper: the archive is the one data value that reads as one.
        for item in value.values():
            if isinstance(item, (bytes, bytearray)):
                inner, inner_unmasked = read_plist(bytes(item))
                if Archive.holds(inner):
                    value, unmasked = inner, inner_unmasked
                    break
    if not failures.check(Archive.holds(value), "%s: plistlib finds no keyed archive in %s" % (path, source)):
        return
    objects = value["$objects"]
    top_key = next(iter(value["$top"]))
    if path.endswith(".json"):
        report = strict_json(open(path, encoding="utf-8").read())
        if not failures.check(isinstance(report, dict), "%s: not an object" % path):
            return
        failures.check(report.get("archiver") == value["$archiver"], "%s: archiver %r" % (path, report.get("archiver")))
        failures.check(report.get("version") == value["$version"], "%s: version %r, the archive's %r" % (path, report.get("version"), value["$version"]))
        failures.check(report.get("topKey") == top_key, "%s: top key %r, the archive's %r" % (path, report.get("topKey"), top_key))
        failures.check(report.get("objectCount") == len(objects), "%s: %r objects, the archive has %d" % (path, report.get("objectCount"), len(objects)))
        failures.check(report.get("xorUndone") == unmasked, "%s: xorUndone %r, plistlib needed %s" % (path, report.get("xorUndone"), unmasked))
        root = report.get("root")
        failures.check(isinstance(root, dict) and root.get("uid") == value["$top"][top_key].data,
                       "%s: root is not $top.%s" % (path, top_key))
        check_archive_objects(report, objects, path, failures)
    else:
        text = open(path, encoding="utf-8").read()
        first = text.split("\n", 1)[0]
        failures.check("version %d, %d objects, top key \"%s\"" % (value["$version"], len(objects), top_key) in first,
                       "%s: the first line %r does not give the archive's version, object count and top key" % (path, first))
        # Every string object the text shows by number is that object.
        for index, item in enumerate(objects):
            if isinstance(item, str) and item != "$null" and len(item) < 60 and "\\" not in item and '"' not in item:
                marker = "#%d string \"%s\"" % (index, item)
                if ("#%d string" % index) in text:
                    failures.check(marker in text, "%s: object %d is %r, not what the text shows" % (path, index, item))
            elif isinstance(item, int) and not isinstance(item, bool) and ("#%d integer" % index) in text:
                failures.check(("#%d integer %d" % (index, item)) in text, "%s: object %d is %r, not what the text shows" % (path, index, item))


def counted(count, one, many):
    return "%d %s" % (count, one if count == 1 else many)


def check_plist_print(path, source, failures):
    value = plistlib.loads(open(source, "rb").read())
    text = open(path, encoding="utf-8").read()
    lines = text.split("\n")
    failures.check(isinstance(value, dict) and lines[0] == "dictionary (%s)" % counted(len(value), "entry", "entries"),
                   "%s: the first line %r, plistlib reads %d entries" % (path, lines[0], len(value)))

    def walk(node, label):
        if isinstance(node, dict):
            failures.check(("%s: dictionary (%s)" % (label, counted(len(node), "entry", "entries"))) in text or label is None,
                           "%s: %s is a dictionary of %d entries, not so printed" % (path, label, len(node)))
            for k, v in node.items():
                if isinstance(v, bool):
                    failures.check(("%s: boolean %s" % (k, "true" if v else "false")) in text, "%s: %s: boolean %s missing" % (path, k, v))
                elif isinstance(v, int):
                    failures.check(("%s: integer %d" % (k, v)) in text, "%s: %s: integer %d missing" % (path, k, v))
                elif isinstance(v, plistlib.UID):
                    failures.check(("%s: UID(%d)" % (k, v.data)) in text, "%s: %s: UID(%d) missing" % (path, k, v.data))
                elif isinstance(v, (dict, list)):
                    walk(v, k)
        elif isinstance(node, list):
            failures.check(("%s: array (%s)" % (label, counted(len(node), "item", "items"))) in text, "%s: %s is an array of %d items, not so printed" % (path, label, len(node)))
            for index, v in enumerate(node):
                if isinstance(v, str) and v.isprintable() and '"' not in v and "\\" not in v:
                    failures.check(("[%d]: string \"%s\"" % (index, v)) in text, "%s: %s[%d] %r missing" % (path, label, index, v))
                elif isinstance(v, (dict, list)):
                    walk(v, "[%d]" % index)

    walk(value, None)


class Page(html.parser.HTMLParser):
    VOID = {"meta", "br", "img", "input", "link", "hr", "col", "wbr", "source", "area", "base", "embed", "param", "track"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack, self.errors, self.text, self.tags = [], [], [], []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, attrs))
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        self.tags.append((tag, attrs))

    def handle_endtag(self, tag):
        if not self.stack or self.stack[-1] != tag:
            self.errors.append("</%s> closes %s" % (tag, self.stack[-1] if self.stack else "nothing"))
        else:
            self.stack.pop()

    def handle_data(self, data):
        self.text.append(data)


def check_renderers(folder, failures):
    rows = [strict_json(line) for line in open(os.path.join(folder, "renderers.jsonl"), encoding="utf-8").read().splitlines()]
    failures.check(rows and all(isinstance(r, dict) and isinstance(r.get("finding"), str) for r in rows), "renderers.jsonl: a line is not a finding")
    with open(os.path.join(folder, "renderers.csv"), newline="", encoding="utf-8") as f:
        table = list(csv.DictReader(f))
    with open(os.path.join(folder, "renderers.tsv"), encoding="utf-8") as f:
        lines = f.read().splitlines()
    header = lines[0].split("\t")
    tsv = [dict(zip(header, line.split("\t"))) for line in lines[1:]]
    # The tables have a row per blob or orphan; a blob's partial file is in its row's columns.
    # What could not be read ends the JSON lines (path and message); the tables leave it to
    # standard error.
    partials = [r for r in rows if r["finding"] == "partial-file"]
    errors = [r for r in rows if r["finding"] == "error"]
    failures.check(all(set(r) == {"finding", "path", "message"} for r in errors), "renderers.jsonl: an error line is not {finding, path, message}")
    failures.check(rows[len(rows) - len(errors):] == errors, "renderers.jsonl: an error line before a finding")
    rows = [r for r in rows if r["finding"] not in ("partial-file", "error")]
    failures.check(len(table) == len(rows) == len(tsv), "renderers: %d JSON lines, %d CSV rows, %d TSV rows" % (len(rows), len(table), len(tsv)))
    failures.check(all(p.get("path") in {r.get("partialFilePath") for r in table} for p in partials),
                   "renderers.csv: a partial file of the JSON lines is in no row")
    failures.check(all(len(line.split("\t")) == len(header) for line in lines[1:]), "renderers.tsv: a row has another column count than the header")
    for index, (row, record, line) in enumerate(zip(rows, table, tsv)):
        failures.check(record.get("finding") == row["finding"] == line.get("finding"), "renderers: row %d's finding differs" % index)
        failures.check(record.get("path") == row.get("path"), "renderers: row %d's path differs between CSV and JSON" % index)
        for field in ("downloadURL", "bytesReceived", "bundleID"):
            if field in row and field in record:
                wanted = "" if row[field] is None else str(row[field])
                failures.check(record[field] == wanted, "renderers.csv: row %d's %s is %r, the JSON's %r" % (index, field, record[field], wanted))
    with open(os.path.join(folder, "renderers.timeline.csv"), newline="", encoding="utf-8") as f:
        timeline = list(csv.DictReader(f))
    failures.check(timeline and all(r["timestamp"].isdigit() and r["datetime"].endswith("Z") for r in timeline),
                   "renderers.timeline.csv: a row without a timestamp")
    failures.check([int(r["timestamp"]) for r in timeline] == sorted(int(r["timestamp"]) for r in timeline),
                   "renderers.timeline.csv: not in time order")
    paths = {r.get("path") for r in rows + partials}
    failures.check(all(r["path"] in paths for r in timeline), "renderers.timeline.csv: a path that no finding has")
    page_text = open(os.path.join(folder, "renderers.html"), encoding="utf-8").read()
    page = Page()
    page.feed(page_text)
    page.close()
    failures.check(not page.errors and not page.stack, "renderers.html: tags do not balance: %s %s" % (page.errors[:3], page.stack))
    # The hostile values are shown as text, never as markup.
    failures.check(not any(tag == "img" and any(k == "onerror" for k, _ in attrs) for tag, attrs in page.tags),
                   "renderers.html: a hostile <img onerror> became markup")
    text = "".join(page.text)
    for row in rows:
        if isinstance(row.get("downloadURL"), str) and "<script>" in row["downloadURL"]:
            failures.check("<script>document" not in page_text, "renderers.html: a hostile <script> is markup")
            failures.check(row["downloadURL"].replace("\x1b", "") in text.replace("\x1b", "") or "document.title" in text,
                           "renderers.html: the hostile URL is not shown as text")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--expected", default=os.path.join(HERE, "Expected"))
    parser.add_argument("--samples", default=os.path.join(ROOT, "Samples"))
    parser.add_argument("--fixtures", default=os.path.join(ROOT, "Tests", "ResumeDataCodecTests", "Fixtures"))
    args = parser.parse_args()
    failures = Failures()
    checked, unchecked = [], []
    for folder, _, names in sorted(os.walk(args.expected)):
        for name in sorted(names):
            path = os.path.join(folder, name)
            relative = os.path.relpath(path, args.expected)
            kind, _, rest = relative.partition(os.sep)
            before = len(failures.lines)
            try:
                if name.endswith(".json"):
                    strict_json(open(path, encoding="utf-8").read())
                if kind == "inspect":
                    source = os.path.join(args.samples, rest.rsplit(".", 1)[0])
                    if name.endswith(".json"):
                        check_inspect(path, source, failures)
                    else:
                        # Checked with its JSON twin; on its own it must at least name the blob.
                        text = open(path, encoding="utf-8").read()
                        failures.check(text.startswith(os.path.basename(source) + ":"), "%s: does not name %s" % (relative, source))
                elif kind == "archive":
                    stem = rest.rsplit(".", 1)[0]
                    source = os.path.join(args.samples, stem)
                    if not os.path.exists(source):
                        source = os.path.join(args.fixtures, "real", stem)
                    check_archive(path, source, failures)
                elif kind == "plist":
                    check_plist_print(path, os.path.join(args.fixtures, "real", rest.rsplit(".", 1)[0] + ".bplist"), failures)
                elif relative.startswith(os.path.join("scan", "renderers")):
                    if name == "renderers.jsonl":
                        check_renderers(folder, failures)
                    else:
                        failures.check(os.path.exists(os.path.join(folder, "renderers.jsonl")), "%s: no renderers.jsonl beside it" % relative)
                else:
                    unchecked.append(relative)
                    continue
            except (OSError, ValueError, KeyError, IndexError, TypeError) as error:
                failures.lines.append("%s: %s: %s" % (relative, type(error).__name__, error))
            checked.append(relative)
            print("%s %s" % ("ok  " if len(failures.lines) == before else "FAIL", relative))
    for relative in unchecked:
        print("not checked (no independent reader) %s" % relative)
    for line in failures.lines:
        print("MISMATCH " + line)
    print("golden-cross-check: %d files checked, %d not checked, %d mismatches" % (len(checked), len(unchecked), len(failures.lines)))
    return 1 if failures.lines or not checked else 0


if __name__ == "__main__":
    sys.exit(main())
