"""Extracts the property-list reading vectors of swift-foundation's
Tests/FoundationEssentialsTests/PropertyListEncoderTests.swift into
swift-foundation-PropertyListEncoderTests.json (see README.md beside this file).

    python3 extract_swift_foundation.py GIT_DIR COMMIT > swift-foundation-PropertyListEncoderTests.json

GIT_DIR is a clone of https://github.com/swiftlang/swift-foundation. The test's byte arrays
(`let bplist = [...] as [UInt8]`) and resource files are read from that commit; the XML strings,
which the tests build in Swift, are copied here with the test that holds them. Only the tests
that read a property list are taken (the encoder's own tests and Codable-only behaviour are not
about the reader). Each vector records what the test asserts and, where resumetool differs
(the test decodes into a Swift type, or resumetool keeps to CoreFoundation), what we expect and why.
"""
import base64
import datetime
import re
import subprocess
import sys

from plist_vector_tags import Seconds2001, tag, write_suite

GIT_DIR, COMMIT = sys.argv[1], sys.argv[2]
TEST = 'Tests/FoundationEssentialsTests/PropertyListEncoderTests.swift'
RESOURCES = 'Tests/FoundationEssentialsTests/Resources/'


def show(path):
    return subprocess.run(['git', '--git-dir', GIT_DIR, 'show', f'{COMMIT}:{path}'], check=True, capture_output=True).stdout


source = show(TEST).decode()
vectors = []


def add(test, name, data, value=None, refused=False, upstream=None, note=None):
    if isinstance(data, str):
        data = data.encode()
    vector = {'test': test, 'name': name, 'input': base64.b64encode(bytes(data)).decode()}
    vector['expect'] = 'refused' if refused else {'value': tag(value)}
    vector['upstream'] = upstream or ('refuses' if refused else 'reads')
    if note:
        vector['note'] = note
    vectors.append(vector)


def byte_array(test):
    """The `let bplist = [...] as [UInt8]` literal of a test, comments dropped."""
    body = source[source.index(f'func {test}('):]
    literal = body[body.index('let bplist = ['):body.index('] as [UInt8]')]
    literal = re.sub(r'/\*.*?\*/', '', literal)
    literal = re.sub(r'//[^\n]*', '', literal)
    return bytes(int(h, 16) for h in re.findall(r'0x([0-9A-Fa-f]{2})', literal))


HEADER = ('<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" '
          '"http://www.apple.com/DTDs/PropertyList-1.0.dtd">\n<plist version="1.0">\n')
GENERIC = {
    'array1': ['arr0', 42, False, datetime.datetime(1976, 4, 1, 12), bytes([0xaa, 0xbb, 0xcc, 0xdd, 0x00, 0x11, 0x22, 0x33])],
    'item1': 'value1', 'item2': 'value2',
}
TYPE_NOTE = 'the test decodes into {}, which the value does not fit; as a property list it reads'

# genericProperties_XML, genericProperties_binary, issue5877417 (any bplist0? header)
generic_xml = show(RESOURCES + 'Generic_XML_Properties.plist')
generic_binary = show(RESOURCES + 'Generic_XML_Properties_Binary.plist')
add('genericProperties_XML', 'Generic_XML_Properties.plist', generic_xml, GENERIC)
add('genericProperties_binary', 'Generic_XML_Properties_Binary.plist', generic_binary, GENERIC)
add('issue5877417', 'bplist0x header', generic_binary[:7] + b'x' + generic_binary[8:], GENERIC)

# xmlErrors: the resource modified "in all kinds of nasty ways"
original = generic_xml.decode()
add('xmlErrors', 'empty data', b'', refused=True)
errors = {
    'Deleted leading <': original[1:],
    'Unterminated comment': original.replace('<dict>', '<-- unending comment\n<dict>'),
    'Mess with DOCTYPE': original.replace('DOCTYPE', 'foobar'),
    'Early EOF': original[:original.index('//EN')],
    'MalformedDTD': original.replace('<!DOCTYPE', '<?DOCTYPE'),
    'Mismathed close tag': original.replace('</array>', '</somethingelse>'),
    'Bad open tag': original.replace('<array>', '<invalidtag>'),
    'Extra plist object': original.replace('</plist>', '<string>hello</string>\n</plist>'),
    'Non-key inside dict': original.replace('<key>array1</key>', '<string>hello</string>\n<key>array1</key>'),
    'Missing value for key': original.replace('<string>value1</string>', ''),
    'Malformed real tag': original.replace('<integer>42</integer>', '<real>abc123</real>'),
    'Empty int tag': original.replace('<integer>42</integer>', '<integer></integer>'),
    'Strange int tag': original.replace('<integer>42</integer>', '<integer>42q</integer>'),
    'Hex digit in non-hex int': original.replace('<integer>42</integer>', '<integer>42A</integer>'),
    'Enormous int': original.replace('<integer>42</integer>', '<integer>99999999999999999999999999999999999999999</integer>'),
    'Empty plist': '<plist></plist>',
    'Empty date': original.replace('<date>1976-04-01T12:00:00Z</date>', '<date></date>'),
    'Empty real': original.replace('<integer>42</integer>', '<real></real>'),
    'Fake inline DTD': original.replace('PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd"',
                                        '[<!ELEMENT foo (#PCDATA)>]'),
}
for name, text in errors.items():
    add('xmlErrors', name, text, refused=True)

add('issue6164184', 'hexadecimal integers',
    '<plist><array><integer>0x721B</integer><integer>0x1111</integer><integer>-0xFFFF</integer></array></plist>',
    [0x721B, 0x1111, -0xFFFF])

# xmlIntegerEdgeCases: every valid case reads; the "invalid" ones are out of range for the Swift
# type decoded (Int8…UInt64), and refused as property lists only beyond 64 bits.
for text, value in [('127', 127), ('-128', -128), ('32767', 32767), ('-32768', -32768), ('2147483647', 2147483647),
                    ('-2147483648', -2147483648), ('9223372036854775807', 2**63 - 1), ('-9223372036854775808', -2**63),
                    ('0x7f', 127), ('-0x80', -128), ('0x7fff', 32767), ('-0x8000', -32768), ('0x7fffffff', 2**31 - 1),
                    ('-0x80000000', -2**31), ('0x7fffffffffffffff', 2**63 - 1), ('-0x8000000000000000', -2**63),
                    ('255', 255), ('65535', 65535), ('4294967295', 2**32 - 1), ('18446744073709551615', 2**64 - 1)]:
    add('xmlIntegerEdgeCases', f'valid {text}', f'<integer>{text}</integer>', value)
for text, swift_type in [('128', 'Int8'), ('-129', 'Int8'), ('32768', 'Int16'), ('-32769', 'Int16'), ('2147483648', 'Int32'),
                         ('-2147483649', 'Int32'), ('9223372036854775808', 'Int64'), ('-9223372036854775809', 'Int64'),
                         ('0x80', 'Int8'), ('-0x81', 'Int8'), ('0x8000', 'Int16'), ('-0x8001', 'Int16'), ('0x80000000', 'Int32'),
                         ('-0x80000001', 'Int32'), ('0x8000000000000000', 'Int64'), ('-0x8000000000000001', 'Int64'),
                         ('256', 'UInt8'), ('65536', 'UInt16'), ('4294967296', 'UInt32'), ('18446744073709551616', 'UInt64')]:
    value = int(text, 16 if '0x' in text else 10) if not text.startswith('-') else -int(text[1:], 16 if '0x' in text else 10)
    if -2**63 <= value < 2**64:
        add('xmlIntegerEdgeCases', f'{text} as {swift_type}', f'<integer>{text}</integer>', value, upstream='refuses',
            note=TYPE_NOTE.format(swift_type))
    else:
        add('xmlIntegerEdgeCases', f'{text} as {swift_type}', f'<integer>{text}</integer>', refused=True,
            note='outside the 64-bit range every property-list reader holds')
add('xmlIntegerWhitespace', 'blanks around the sign',
    '<array><integer> +\t42</integer><integer>\t-   99</integer><integer> -\t0xFACE</integer></array>', [42, -99, -0xFACE])

# xmlReals: the test decodes Float; the property list holds the double the text spells, which
# converts to each Float the test expects.
add('xmlReals', 'reals',
    '<plist><array><real>1.5</real><real>2</real><real>  -3.14</real><real>1.000000000000000000000001</real>'
    '<real>31415.9e-4</real><real>-iNf</real><real>infInItY</real></array></plist>',
    [1.5, 2.0, -3.14, 1.000000000000000000000001, 31415.9e-4, float('-inf'), float('inf')],
    note='the test compares Float values; the reader keeps the double')
add('xmlReals', 'nan in three cases', '<array><real>nAn</real><real>NAN</real><real>nan</real></array>',
    [float('nan')] * 3)
for xml in ['<real>0x10</real>', '<real>notanumber</real>', '<real>infinite</real>', '<real>1.2.3</real>', '<real>1.e</real>',
            '<real>1.5  </real>', '<real></real>']:
    add('bad_XMLReals', xml, xml, refused=True)

# Old-style (OpenStep) property lists: swift-foundation reads them; resumetool does not read that format.
openstep_note = ('an old-style (OpenStep) property list: Apple reads the format, no Apple writer has produced it '
                 'since Mac OS X 10.0 and resume data is never in it; resumetool reads XML and binary only')
add('oldStylePlist_invalid', 'goodbye cruel world (UTF-16)', 'goodbye cruel world'.encode('utf-16'), refused=True)
add('oldStylePlist_errors', 'junk after the plist', '{ hello = there; }\r\nextra stuff at end'.encode('ascii'), refused=True)
add('oldStylePlist_getSlashedChars_octal', 'test_oldStylePlist_getSlashedChars_octal.plist',
    show(RESOURCES + 'test_oldStylePlist_getSlashedChars_octal.plist'), refused=True, upstream='reads', note=openstep_note)
add('oldStylePlist_getSlashedChars_literals', 'escapes',
    "('\\a', '\\b', '\\f', '\\n', '\\r', '\\t', '\\v', '\\\"', '\\\\n')", refused=True, upstream='reads', note=openstep_note)
add('oldStylePlist_getSlashedChars_variableSizeWithFollowingCharacters', '\\U escapes',
    "('\\U1z', '\\U12z', '\\U123z', '\\U1234')", refused=True, upstream='reads', note=openstep_note)
for example in ["'\\U", "'\\U'", "'\\Ux'", "'\\Uxx'", "'\\Uxxx'", "'\\Uxxxx'"]:
    add('oldStylePlist_getSlashedChars_unicode_invalid', example, example, refused=True)
add('oldStylePlist_dictionary', 'dictionary (UTF-16)',
    '{ "test key" = value;\n  testData = <feed face>;\n  "nested array" = (a, b, c); }'.encode('utf-16'),
    refused=True, upstream='reads', note=openstep_note)
add('oldStylePlist_stringsFileFormat', 'strings file (UTF-16)',
    'string1 = "Good morning";\nstring2 = "Good afternoon";\nstring3 = "Good evening";'.encode('utf-16'),
    refused=True, upstream='reads', note=openstep_note)
add('oldStylePlist_comments', 'strings file with comments (UTF-16)',
    '// Initial comment */\nstring1 = /*Test*/ "Good morning";  // Test\nstring2 = "Good afternoon" /*Test// */;\n'
    'string3 = "Good evening"; // Test'.encode('utf-16'), refused=True, upstream='reads', note=openstep_note)

# Bad input files and keys
add('invalidNSDataKey_82142612', 'Test_82142612.bad (a data key)', show(RESOURCES + 'Test_82142612.bad'), refused=True)
add('invalidNSDataKey_82142612', 'data as a key (xml)', '<plist><dict><data>abcd</data><string>xyz</string></dict></plist>', refused=True)
# nonStringDictionaryKey: ["abcd": "xyz"] in binary (laid out as plistlib and CoreFoundation write it) with the
# key's marker 0x54 changed to true (0x09), as the test changes its encoder's output.
key_bool = (b'bplist00\xd1\x01\x02\x09abcdSxyz\x08\x0b\x10\x00\x00\x00\x00\x00\x00\x01\x01'
            b'\x00\x00\x00\x00\x00\x00\x00\x03\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x14')
add('nonStringDictionaryKey', 'a boolean key (binary)', key_bool, refused=True)
add('nonStringDictionaryKey', 'a string element as key (xml)', '<plist><dict><string>abcd</string><string>xyz</string></dict></plist>', refused=True)
add('issue5616259', 'Test_5616259.bad (encoding="foobar")', show(RESOURCES + 'Test_5616259.bad'), refused=True)
add('plistWithBadUTF8', 'bad_plist.bad', show(RESOURCES + 'bad_plist.bad'), refused=True)

# Dates
add('reallyOldDates_5842198', 'year 9', HEADER + '<date>0009-09-15T23:16:13Z</date>\n</plist>',
    Seconds2001(-62_839_154_627.0), upstream='reads',
    note='the test asserts only that it reads; the value is on the proleptic Gregorian calendar, as CoreFoundation reads it')
add('badDate_decode', 'year 0', HEADER + '<date>0000-01-02T00:00:00Z</date>\n</plist>', Seconds2001(-63_145_440_000.0),
    upstream='reads -63145612800',
    note="swift-foundation's reader uses the Julian calendar before 1582-10-15 (two days off in year 0); CoreFoundation, "
         "which reads and writes resume data, and this reader use the proleptic Gregorian calendar")
add('decodingCompatibility_122065123', 'day 32 of January', HEADER + '<date>2024-01-32T20:43:14Z</date>\n</plist>',
    Seconds2001(728_512_994.0))

# Strings, encodings and markup
add('multibyteCharacters_escaped_noencoding', 'character references',
    '<plist><string>These are copyright signs &#169; &#xA9; blah blah blah.</string></plist>',
    'These are copyright signs \u00a9 \u00a9 blah blah blah.')
add('escapedCharacters', 'predefined entities', '<plist><string>&amp;&apos;&lt;&gt;&quot;</string></plist>', '&\'<>"')
body = '<?xml version="1.0" encoding="{}"?>\n<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">\n<plist version="1.0">\n<string>hello</string>\n</plist>'
add('dataWithBOM_utf8', 'UTF-8 with byte-order mark', b'\xef\xbb\xbf' + body.format('UTF-8').encode('utf-8'), 'hello')
add('dataWithBOM_utf32be', 'UTF-32BE with byte-order mark', b'\x00\x00\xfe\xff' + body.format('UTF-32BE').encode('utf-32-be'), 'hello')
add('dataWithBOM_utf32le', 'UTF-16LE with byte-order mark (as the test builds it)',
    b'\xff\xfe' + body.format('UTF-16LE').encode('utf-16-le'), 'hello')
add('plistWithEscapedCharacters', 'entities in a dictionary',
    '<?xml version="1.0" encoding="UTF-8"?><!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">'
    '<plist version="1.0"><dict><key>com.apple.security.temporary-exception.sbpl</key><string>(allow mach-lookup (global-name-regex #&quot;^[0-9]+$&quot;))</string></dict></plist>',
    {'com.apple.security.temporary-exception.sbpl': '(allow mach-lookup (global-name-regex #"^[0-9]+$"))'})
emoji = ('<?xml version="1.0" encoding="UTF-8"?><!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">'
         '<plist version="1.0"><dict><key>emoji</key><string>{}</string></dict></plist>')
add('decodingEmoji', 'a character reference above U+FFFF', emoji.format('&#128664;'), {'emoji': '\U0001F698'})
add('decodingTooManyCharactersError', 'a character reference too long', emoji.format('&#12341234128664;'), refused=True)
add('decodingTooManyCharactersError', 'a character reference past U+10FFFF', emoji.format('&#12866411;'), refused=True)
add('unterminatedComment', 'an array left open after a comment', '<array><!-- comment -->', refused=True)
add('incompleteOpenTag', 'an open tag cut short', '<array', refused=True)
add('CDATA_section', 'CDATA', '<string><![CDATA[Test &amp; &33; <![CDATA[]]]> outside</string>', 'Test &amp; &33; <![CDATA[] outside')
add('garbageCharactersAfterXMLTagName', 'garbage after a tag name',
    '<plist><dict><key>bar</key><stringGARBAGE>foo</string></dict></plist>', refused=True)
add('garbageCharactersAfterXMLTagName', 'blanks after a tag name',
    '<plist><dict><key>bar</key><string      >foo</string></dict></plist>', {'bar': 'foo'})

# Corrupted binary plists (each a corruption of [42, 314, 0xFF])
for test in ['badReferenceIndex', 'badTopObjectIndex', 'outOfBoundsObjectOffset', 'nonTopObjectOffsetBelowHeader',
             'outOfBoundsOffsetTableStart', 'tooLargeObjectCount', 'tooLargeOffset', 'tooLargeIndex']:
    add(test, 'corrupted [42, 314, 255]', byte_array(test), refused=True)
import plistlib  # noqa: E402 (only for the UID type of the expected value)
add('uid', 'a CF$UID dictionary (xml)', '<plist><dict><key>CF$UID</key><integer>1</integer></dict></plist>', plistlib.UID(1),
    upstream='refuses', note=TYPE_NOTE.format('[String: Int32]') + ' as UID 1, as CoreFoundation reads it')
add('uid', '[UID 1] (binary)', byte_array('uid'), [plistlib.UID(1)], upstream='refuses', note=TYPE_NOTE.format('[Int32]'))

write_suite(sys.stdout, {
    'suite': "swift-foundation's Tests/FoundationEssentialsTests/PropertyListEncoderTests.swift",
    'source': {'repository': 'https://github.com/swiftlang/swift-foundation', 'path': TEST, 'commit': COMMIT,
               'licence': 'Apache License 2.0 with Runtime Library Exception (test data used as a conformance suite)'},
}, vectors)
