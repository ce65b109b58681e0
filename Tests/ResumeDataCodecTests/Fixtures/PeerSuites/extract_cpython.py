"""Extracts the property-list vectors of CPython's Lib/test/test_plistlib.py into
cpython-test_plistlib.json (see README.md beside this file).

Run with the Python whose test suite is extracted (v3.13.0 for the committed file):
    python3.13 extract_cpython.py > cpython-test_plistlib.json
It imports the data blobs of that test module (TESTDATA, INVALID_BINARY_PLISTS, the entity
document) and rebuilds each test's inputs the way the test does: plistlib.dumps of the test's
literal values for its round-trip tests (the bytes are plistlib's writer output), the literal
bytes for the others. Each vector records the value the test asserts, or that it must be
refused, and, where resumetool follows Apple rather than plistlib, what we expect and why.
"""
import base64
import codecs
import collections
import datetime
import json
import plistlib
import struct
import sys

from test import test_plistlib as T
from plist_vector_tags import BinarySet, Seconds2001, tag, write_suite

XML, BINARY = plistlib.FMT_XML, plistlib.FMT_BINARY
FORMATS = ((XML, 'xml'), (BINARY, 'binary'))
vectors = []


def add(test, name, data, value=None, refused=False, upstream=None, note=None):
    vector = {'test': test, 'name': name, 'input': base64.b64encode(bytes(data)).decode()}
    if refused:
        vector['expect'] = 'refused'
    else:
        vector['expect'] = {'value': tag(value)}
    vector['upstream'] = upstream or ('refuses' if refused else 'reads')
    if note:
        vector['note'] = note
    vectors.append(vector)


def create():
    return T.TestPlistlib('test_create')._create()


def binary(*objects, offset_size=1, ref_size=1):
    """A bplist00 file holding `objects`, top object 0: the layout of TestBinaryPlistlib.decode."""
    data = [b'bplist00']
    offset = 8
    offsets = []
    for x in objects:
        offsets.append(offset.to_bytes(offset_size, 'big'))
        data.append(x)
        offset += len(x)
    data.extend(offsets)
    data.append(struct.pack('>6xBBQQQ', offset_size, ref_size, len(objects), 0, offset))
    return b''.join(data)


# TestPlistlib
for fmt, label in FORMATS:
    add('test_appleformatting', f'Apple-written TESTDATA ({label})', T.TESTDATA[fmt], create())
KEYED = {
    '$version': 100000,
    '$objects': ['$null', {'pytype': 1, '$class': plistlib.UID(2), 'NS.string': 'KeyArchive UID Test'},
                 {'$classname': 'OC_BuiltinPythonUnicode',
                  '$classes': ['OC_BuiltinPythonUnicode', 'OC_PythonUnicode', 'NSString', 'NSObject'],
                  '$classhints': ['OC_PythonString', 'NSString']}],
    '$archiver': 'NSKeyedArchiver',
    '$top': {'root': plistlib.UID(1)},
}
add('test_keyed_archive_data', 'Apple-written keyed archive', T.TESTDATA['KEYED_ARCHIVE'], KEYED)

for pl in [0, 2**8-1, 2**8, 2**16-1, 2**16, 2**32-1, 2**32, 2**63-1, 2**64-1, 1, -2**63]:
    for fmt, label in FORMATS:
        add('test_int', f'{pl} ({label})', plistlib.dumps(pl, fmt=fmt), pl)
for pl in (b'<binary gunk>', b"<lots of binary gunk>\0\1\2\3" * 10):
    for fmt, label in FORMATS:
        add('test_bytearray', f'{len(pl)} bytes ({label})', plistlib.dumps(bytearray(pl), fmt=fmt), pl)
add('test_bytes', 'the _create() dictionary (xml)', plistlib.dumps(create()), create())
for name, pl in [('test_indentation_array', [[[[[[[[{'test': b'aaaaaa'}]]]]]]]]),
                 ('test_indentation_dict', {'1': {'2': {'3': {'4': {'5': {'6': {'7': {'8': {'9': b'aaaaaa'}}}}}}}}}),
                 ('test_indentation_dict_mix', {'1': {'2': [{'3': [[[[[{'test': b'aaaaaa'}]]]]]}]}})]:
    add(name, 'nested (xml)', plistlib.dumps(pl), pl)
add('test_uid', 'UID(1) (binary)', plistlib.dumps(plistlib.UID(1), fmt=BINARY), plistlib.UID(1))
uids = {'uid0': plistlib.UID(0), 'uid2': plistlib.UID(2), 'uid8': plistlib.UID(2 ** 8), 'uid16': plistlib.UID(2 ** 16),
        'uid32': plistlib.UID(2 ** 32), 'uid63': plistlib.UID(2 ** 63)}
add('test_uid', 'UIDs of every width (binary)', plistlib.dumps(uids, fmt=BINARY), uids)
ordered = collections.OrderedDict([('b', 1), ('a', 2), ('c', 3)])
for fmt, label in FORMATS:
    for sort_keys in (False, True):
        expected = dict(sorted(ordered.items())) if sort_keys else dict(ordered)
        add('test_keysort', f'{"sorted" if sort_keys else "unsorted"} keys ({label}); key order asserted',
            plistlib.dumps(ordered, fmt=fmt, sort_keys=sort_keys), expected)
    add('test_skipkeys', f'non-string key skipped ({label})',
        plistlib.dumps({42: 'aNumber', 'snake': 'aWord'}, fmt=fmt, skipkeys=True, sort_keys=False), {'snake': 'aWord'})
for name, pl, expected in [
        ('test_tuple_members', {'first': (1, 2), 'second': (1, 2), 'third': (3, 4)}, {'first': [1, 2], 'second': [1, 2], 'third': [3, 4]}),
        ('test_list_members', {'first': [1, 2], 'second': [1, 2], 'third': [3, 4]}, {'first': [1, 2], 'second': [1, 2], 'third': [3, 4]}),
        ('test_dict_members', {'first': {'a': 1}, 'second': {'a': 1}, 'third': {'b': 2}}, {'first': {'a': 1}, 'second': {'a': 1}, 'third': {'b': 2}})]:
    for fmt, label in FORMATS:
        add(name, f'shared members ({label})', plistlib.dumps(pl, fmt=fmt), expected)
for i in range(128):
    c = chr(i)
    text = 'string containing %s' % c
    if i >= 32 or c in '\r\n\t':
        if c == '\r':
            add('test_controlcharacters', 'U+000D (xml)', plistlib.dumps(text, fmt=XML), 'string containing \n',
                upstream='no assertion', note='XML turns a raw carriage return into a line feed (XML 1.0 section 2.11); plistlib skips the check for it')
        else:
            add('test_controlcharacters', f'U+{i:04X} (xml)', plistlib.dumps(text, fmt=XML), text)
    add('test_controlcharacters', f'U+{i:04X} (binary)', plistlib.dumps(text, fmt=BINARY), text,
        upstream='no assertion', note='the test only writes it; the value read back is the string written')
for fmt, label in FORMATS:
    add('test_non_bmp_characters', f'U+1F40D ({label})', plistlib.dumps({'python': '\U0001f40d'}, fmt=fmt), {'python': '\U0001f40d'})
    add('test_nondictroot', f'string root ({label})', plistlib.dumps('abc', fmt=fmt), 'abc')
    add('test_nondictroot', f'array root ({label})', plistlib.dumps([1, 2, 3, 'abc'], fmt=fmt), [1, 2, 3, 'abc'])
for i in ['<key>key inside an array</key>', '<key>key inside an array2</key><real>3</real>', '<true/><key>key inside an array3</key>']:
    add('test_invalidarray', i, ('<plist><array>%s</array></plist>' % i).encode(), refused=True)
for i in ['<key><true/>k</key><string>compound key</string>', '<key>single key</key>', '<string>missing key</string>',
          '<key>k1</key><string>v1</string><real>5.3</real><key>k1</key><key>k2</key><string>double key</string>']:
    add('test_invaliddict', i, ('<plist><dict>%s</dict></plist>' % i).encode(), refused=True)
    add('test_invaliddict', i + ' (in an array)', ('<plist><array><dict>%s</dict></array></plist>' % i).encode(), refused=True)
add('test_invalidinteger', 'not integer', b'<plist><integer>not integer</integer></plist>', refused=True)
add('test_invalidreal', 'not real', b'<plist><integer>not real</integer></plist>', refused=True)
add('test_integer_notations', '456', b'<plist><integer>456</integer></plist>', 456)
add('test_integer_notations', '0xa', b'<plist><integer>0xa</integer></plist>', 10)
add('test_integer_notations', '0123', b'<plist><integer>0123</integer></plist>', 123)
for xml_encoding, encoding, bom, upstream, note in [
        (b'utf-8', 'utf-8', codecs.BOM_UTF8, None, None),
        (b'utf-16', 'utf-16-le', codecs.BOM_UTF16_LE, None, None),
        (b'utf-16', 'utf-16-be', codecs.BOM_UTF16_BE, None, None),
        (b'utf-32', 'utf-32-le', codecs.BOM_UTF32_LE, 'commented out', 'the test leaves UTF-32 out because Expat cannot read it; Apple reads it'),
        (b'utf-32', 'utf-32-be', codecs.BOM_UTF32_BE, 'commented out', 'the test leaves UTF-32 out because Expat cannot read it; Apple reads it')]:
    data = bom + T.TESTDATA[XML].replace(b'UTF-8', xml_encoding).decode('utf-8').encode(encoding)
    add('test_xml_encodings', f'{encoding} with byte-order mark', data, create(), upstream=upstream, note=note)
add('test_load_invalid_file', 'not a plist', b'these are not plist file contents', refused=True)
add('test_xml_plist_with_entity_decl', 'entity declaration', T.XML_PLIST_WITH_ENTITY, refused=True)
add('test_load_aware_datetime', 'date (xml)', b'<plist><date>2023-12-10T08:03:30Z</date></plist>', datetime.datetime(2023, 12, 10, 8, 3, 30))
utc = datetime.datetime(2345, 6, 7, 8, 9, 10, tzinfo=datetime.UTC)
for fmt, label in FORMATS:
    add('test_dump_utc_aware_datetime', f'2345-06-07T08:09:10Z ({label})', plistlib.dumps(utc, fmt=fmt, aware_datetime=True), utc)
add('test_dump_utc_aware_datetime_without_aware_datetime_option', '2345-06-07T08:00:00Z (xml)',
    plistlib.dumps(datetime.datetime(2345, 6, 7, 8, tzinfo=datetime.UTC), fmt=XML, aware_datetime=False), datetime.datetime(2345, 6, 7, 8))

# TestBinaryPlistlib
add('test_nonstandard_refs_size', '24-bit references and offsets',
    b'bplist00\xd1\x00\x00\x01\x00\x00\x02QaQb\x00\x00\x08\x00\x00\x0f\x00\x00\x11\x00\x00\x00\x00\x00\x00\x03\x03'
    b'\x00\x00\x00\x00\x00\x00\x00\x03\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x13', {'a': 'b'})
scalars = [None, False, True, 12345, 123.45, 'abcde', 'абвгд', b'abcde', datetime.datetime(2004, 10, 26, 10, 33, 33),
           bytearray(b'abcde'), [12, 345], (12, 345), {'12': 345}]
for x in scalars:
    add('test_dump_duplicates', f'[{x!r}] * 1000', plistlib.dumps([x] * 1000, fmt=BINARY), [x] * 1000)
for x in scalars:
    if x == 'абвгд':
        continue
    add('test_identity', f'[{x!r}] * 2', plistlib.dumps([x] * 2, fmt=BINARY), [x] * 2)
cycle_note = 'plistlib rebuilds the cycle; CoreFoundation and swift-foundation refuse a container that contains itself, and so do we'
a = []
a.append(a)
add('test_cycles', 'recursive list', plistlib.dumps(a, fmt=BINARY), refused=True, upstream='reads', note=cycle_note)
a = ([],)
a[0].append(a)
add('test_cycles', 'recursive tuple', plistlib.dumps(a, fmt=BINARY), refused=True, upstream='reads', note=cycle_note)
a = {}
a['x'] = a
add('test_cycles', 'recursive dict', plistlib.dumps(a, fmt=BINARY), refused=True, upstream='reads', note=cycle_note)
for n in [50, 300]:
    chunks = [b'\xa1' + (i + 1).to_bytes(4, 'big') for i in range(n)]
    value = 'seed'
    for _ in range(n):
        value = [value]
    if n <= 256:
        add('test_deep_nesting', f'{n} arrays deep', binary(*chunks, b'\x54seed', offset_size=4, ref_size=4), value)
    else:
        add('test_deep_nesting', f'{n} arrays deep', binary(*chunks, b'\x54seed', offset_size=4, ref_size=4), refused=True,
            upstream='reads', note='deeper than PropertyListReadOptions.maximumDepth (256 by default): our bound on nesting, so that no input overflows the stack (plistlib reads up to its recursion limit)')
for ts in -2**31 - 1, 2**31:
    d = datetime.datetime(1970, 1, 1) + datetime.timedelta(seconds=ts)
    add('test_large_timestamp', f'{ts} s since 1970', plistlib.dumps(d, fmt=BINARY), d)
add('test_load_singletons', 'null (0x00)', binary(b'\x00'), None)
add('test_load_singletons', 'false (0x08)', binary(b'\x08'), False)
add('test_load_singletons', 'true (0x09)', binary(b'\x09'), True)
add('test_load_singletons', 'fill (0x0f)', binary(b'\x0f'), refused=True, upstream='reads',
    note='plistlib reads fill as b""; CoreFoundation and swift-foundation refuse it as an object (it is padding)')
for data, value in [(b'\x10\x00', 0), (b'\x10\xfe', 0xfe), (b'\x11\xfe\xdc', 0xfedc), (b'\x12\xfe\xdc\xba\x98', 0xfedcba98),
                    (b'\x13\x01\x23\x45\x67\x89\xab\xcd\xef', 0x0123456789abcdef), (b'\x13\xfe\xdc\xba\x98\x76\x54\x32\x10', -0x123456789abcdf0)]:
    add('test_load_int', data.hex(), binary(data), value)
unsupported = [*range(1, 8), *range(10, 15), 0x20, 0x21, *range(0x24, 0x33), *range(0x34, 0x40)]
for i in [0x70, 0x90, 0xb0, 0xc0, 0xe0, 0xf0]:
    unsupported.extend(i + j for j in range(16))
for token in unsupported:
    data = binary(bytes([token]) + b'\x00' * 16)
    if token == 0xc0:
        add('test_unsupported', f'token {token:02x}', data, BinarySet(), upstream='refuses',
            note='an empty set: plistlib has no set type; CoreFoundation and swift-foundation read sets, and so do we')
    else:
        add('test_unsupported', f'token {token:02x}', data, refused=True)
date_note = ('a binary date is any double: CoreFoundation and swift-foundation read this one (a Date of that many seconds '
             'since 2001); plistlib refuses it because Python\'s datetime cannot hold it')
for name, data in T.INVALID_BINARY_PLISTS:
    data = b'bplist00' + data
    if 'datetime' in name:
        seconds = struct.unpack('>d', data[9:17])[0]
        add('test_invalid_binary', name, data, Seconds2001(seconds), upstream='refuses', note=date_note)
    else:
        add('test_invalid_binary', name, data, refused=True)
add('test_load_aware_datetime', 'date (binary)',
    b'bplist003B\x04>\xd0d\x00\x00\x00\x08\x00\x00\x00\x00\x00\x00\x01\x01\x00\x00\x00\x00\x00\x00\x00\x01\x00\x00\x00\x00\x00'
    b'\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x11', datetime.datetime(2345, 6, 7, 8))

write_suite(sys.stdout, {
    'suite': "CPython's Lib/test/test_plistlib.py",
    'source': {'repository': 'https://github.com/python/cpython', 'path': 'Lib/test/test_plistlib.py',
               'version': 'v' + '.'.join(map(str, sys.version_info[:3])),
               'licence': 'Python Software Foundation License Version 2 (test data used as a conformance suite)'},
}, vectors)
