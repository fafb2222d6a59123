#!/usr/bin/env python3
"""Every `try?` in Sources says why swallowing the error is right: a `// try?: <why>` comment on its line or on
one of the two lines above (issue 27.6). Exit 1 with one line per `try?` without one. A `try?` inside a comment or
a string literal is not code and is not counted."""
import os, re, sys

TRY_OPTIONAL = re.compile(r"(?<![\w.])try\?")
REASON = "try?:"
LINES_ABOVE = 2

def code_part(line):
    """The line without its `//` comment and without the text of its string literals (enough for Swift as
    written here: no multi-line literals hold `try?`)."""
    out, in_string, i = [], False, 0
    while i < len(line):
        c = line[i]
        if in_string:
            if c == "\\": i += 2; continue
            if c == '"': in_string = False
        elif c == '"': in_string = True
        elif line.startswith("//", i): break
        else: out.append(c)
        i += 1
    return "".join(out)

def unexplained(path):
    with open(path, encoding="utf-8") as fh:
        lines = fh.read().split("\n")
    for number, line in enumerate(lines):
        if TRY_OPTIONAL.search(code_part(line)):
            window = lines[max(0, number - LINES_ABOVE):number + 1]
            if not any(REASON in w for w in window):
                yield number + 1, line.strip()

def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    sources = os.path.join(root, sys.argv[1] if len(sys.argv) > 1 else "Sources")
    problems, total = [], 0
    for dirpath, _, files in os.walk(sources):
        for name in sorted(files):
            if name.endswith(".swift"):
                path = os.path.join(dirpath, name)
                with open(path, encoding="utf-8") as fh:
                    total += sum(1 for l in fh if TRY_OPTIONAL.search(code_part(l)))
                for number, text in unexplained(path):
                    problems.append(f"{os.path.relpath(path, root)}:{number}: `try?` without a `// try?: why` comment: {text}")
    for p in sorted(problems): print(p)
    if problems:
        print(f"{len(problems)} of {total} `try?` say not why the error may be dropped", file=sys.stderr)
        return 1
    return 0

if __name__ == "__main__":
    sys.exit(main())
