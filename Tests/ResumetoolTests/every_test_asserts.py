#!/usr/bin/env python3
"""Every `@Test` function under the given folders asserts something: its body holds `#expect`,
`#require` or `Issue.record`, or calls a function of the test sources that does (directly or
through other such functions). A test without one passes whatever the code does.

    every_test_asserts.py FOLDER...

Prints each test that asserts nothing with its file and line, and the count of tests read;
exit 0 when there is none, 1 otherwise.
"""
import os
import re
import sys

ASSERTION = re.compile(r"#expect\b|#require\b|Issue\.record\b")
CALL = re.compile(r"\b([A-Za-z_]\w*)\s*(?:\(|\{)")
FUNC = re.compile(r"\bfunc\s+([A-Za-z_]\w*)")
TEST = re.compile(r"^\s*@Test\b", re.M)


def code_only(s):
    """`s` with its comments and string literals blanked (newlines kept, so lines still count):
    `#expect` in a comment or a string is no assertion. An interpolation's code stays."""
    out, j, n = [], 0, len(s)

    def blank(text):
        return "".join(c if c == "\n" else " " for c in text)

    while j < n:
        if s.startswith("//", j):
            k = s.find("\n", j)
            k = n if k < 0 else k
            out.append(blank(s[j:k]))
            j = k
        elif s.startswith("/*", j):
            k = s.find("*/", j + 2)
            k = n if k < 0 else k + 2
            out.append(blank(s[j:k]))
            j = k
        elif s[j] == '"':
            triple = s.startswith('"""', j)
            k = j + (3 if triple else 1)
            out.append(blank(s[j:k]))
            while k < n and not (s.startswith('"""', k) if triple else s[k] in '"\n'):
                if s[k] == "\\" and k + 1 < n and s[k + 1] == "(":
                    parens, m = 0, k + 1
                    while m < n:
                        parens += {"(": 1, ")": -1}.get(s[m], 0)
                        if parens == 0:
                            break
                        m += 1
                    out.append("  " + code_only(s[k + 2:m]) + " ")
                    k = m + 1
                    continue
                step = 2 if s[k] == "\\" else 1
                out.append(blank(s[k:k + step]))
                k += step
            close = 3 if triple else 1
            out.append(blank(s[k:k + close]))
            j = k + close
        else:
            out.append(s[j])
            j += 1
    return "".join(out)


def body_end(s, start):
    """The index of the `}` closing the `{` at `start` in code without comments or strings."""
    depth = 0
    for j in range(start, len(s)):
        if s[j] == "{":
            depth += 1
        elif s[j] == "}":
            depth -= 1
            if depth == 0:
                return j
    return len(s)


def main():
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        return 64
    files = {}
    for root in sys.argv[1:]:
        for folder, _, names in os.walk(root):
            for name in sorted(names):
                if name.endswith(".swift"):
                    path = os.path.join(folder, name)
                    files[path] = code_only(open(path, encoding="utf-8").read())
    bodies = {}
    for text in files.values():
        for match in FUNC.finditer(text):
            brace = text.find("{", match.end())
            if brace >= 0:
                bodies.setdefault(match.group(1), []).append(text[brace:body_end(text, brace) + 1])

    memo = {}

    def asserts(name, seen):
        if name in memo:
            return memo[name]
        if name in seen:
            return False
        seen.add(name)
        result = any(ASSERTION.search(body) or any(c in bodies and asserts(c, seen) for c in set(CALL.findall(body)))
                     for body in bodies.get(name, []))
        memo[name] = result if result else memo.get(name, False)
        return result

    tests, silent = 0, []
    for path, text in sorted(files.items()):
        for match in TEST.finditer(text):
            function = FUNC.search(text, match.end())
            if function is None:
                continue
            brace = text.find("{", function.end())
            body = text[brace:body_end(text, brace) + 1]
            tests += 1
            if ASSERTION.search(body):
                continue
            if any(c in bodies and asserts(c, set()) for c in set(CALL.findall(body))):
                continue
            silent.append("%s:%d: %s asserts nothing" % (path, text.count("\n", 0, function.start()) + 1, function.group(1)))
    for line in silent:
        print(line)
    print("every-test-asserts: %d tests, %d assert nothing" % (tests, len(silent)))
    return 1 if silent or tests == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
