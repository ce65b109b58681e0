"""Tagged JSON for expected property-list values, shared by the two extraction scripts.

The tags are those of BinaryPythonCrossCheckTests (Tests/ResumeDataCodecTests), which decodes
them: ["s", text], ["i", "decimal"], ["f", "hex of the double's bits"], ["b", "1"|"0"],
["d", "hex bits of seconds since 2001-01-01"], ["x", "hex bytes"], ["u", "decimal"],
["a", [items]], ["S", [items]] (a set), ["D", [[key, item], ...]] (key order kept), ["n", ""].
"""
import datetime
import plistlib
import struct

EPOCH = datetime.datetime(2001, 1, 1)


class Seconds2001(float):
    """A date given as seconds since 2001, for dates Python's datetime cannot hold."""


class BinarySet(list):
    """A binary plist set (marker 0xC0), which plistlib has no type for."""


def bits(value):
    return struct.pack('>d', value).hex()


def tag(o):
    if o is None:
        return ['n', '']
    if isinstance(o, bool):
        return ['b', '1' if o else '0']
    if isinstance(o, int):
        return ['i', str(o)]
    if isinstance(o, Seconds2001):
        return ['d', bits(float(o))]
    if isinstance(o, float):
        return ['f', bits(o)]
    if isinstance(o, str):
        return ['s', o]
    if isinstance(o, (bytes, bytearray)):
        return ['x', bytes(o).hex()]
    if isinstance(o, datetime.datetime):
        if o.tzinfo is not None:
            o = o.astimezone(datetime.timezone.utc).replace(tzinfo=None)
        return ['d', bits((o - EPOCH).total_seconds())]
    if isinstance(o, plistlib.UID):
        return ['u', str(o.data)]
    if isinstance(o, BinarySet):
        return ['S', [tag(x) for x in o]]
    if isinstance(o, (list, tuple)):
        return ['a', [tag(x) for x in o]]
    if isinstance(o, dict):
        return ['D', [[k, tag(v)] for k, v in o.items()]]
    raise TypeError(type(o))


def write_suite(out, header, vectors):
    """The suite as JSON with one vector a line, so that a change shows as a one-line diff."""
    import json
    out.write('{\n')
    for key, value in header.items():
        out.write(f' {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)},\n')
    out.write(' "vectors": [\n')
    out.write(',\n'.join('  ' + json.dumps(v, ensure_ascii=False, separators=(',', ':')) for v in vectors))
    out.write('\n ]\n}\n')
