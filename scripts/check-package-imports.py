#!/usr/bin/env python3
"""Package.swift tells the truth: every module a target imports is declared as its dependency, and every
declared dependency is imported somewhere in the target. Reads `swift package dump-package`; exit 1 with one
line per mismatch. (SwiftPM's --explicit-target-dependency-import-check accepts transitive dependencies and
never reports unused ones, so it cannot check this alone.)"""
import json, os, re, subprocess, sys

# Modules that come with the toolchain, not from Package.swift.
SYSTEM = {"Foundation", "FoundationEssentials", "FoundationNetworking", "FoundationXML", "Glibc", "Darwin",
          "Dispatch", "XCTest", "Testing", "Swift", "_Concurrency", "Synchronization"}
# Declared on purpose although nothing imports them.
DECLARED_UNIMPORTED = {
    ("EndToEndTests", "livegrid"): "the end-to-end tests run the built binary, so it must be built first",
}
# `import X`, `@testable import X`, `@preconcurrency import X`, `import struct X.Y`; Swift modules are
# capitalised, which also keeps Python or shell text inside string literals out.
IMPORT = re.compile(r"^[ \t]*(?:@\w+(?:\([^)]*\))?[ \t]+)*import[ \t]+(?:(?:struct|class|enum|func|protocol|typealias|var|let)[ \t]+)?([A-Z_]\w*)", re.M)

def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    dump = json.loads(subprocess.run(["swift", "package", "dump-package"], cwd=root, check=True,
                                     capture_output=True, text=True).stdout)
    problems = []
    for target in dump["targets"]:
        name, kind = target["name"], target["type"]
        if kind == "system":
            continue
        path = target.get("path") or os.path.join("Tests" if kind == "test" else "Sources", name)
        declared = {}
        for dep in target["dependencies"]:
            if "byName" in dep: declared[dep["byName"][0]] = dep["byName"][0]
            elif "target" in dep: declared[dep["target"][0]] = dep["target"][0]
            elif "product" in dep: declared[dep["product"][0]] = dep["product"][0]
        imported = set()
        for dirpath, _, files in os.walk(os.path.join(root, path)):
            for f in files:
                if f.endswith(".swift"):
                    with open(os.path.join(dirpath, f), encoding="utf-8") as fh:
                        imported.update(IMPORT.findall(fh.read()))
                elif f.endswith((".c", ".h")):
                    imported.add("__c__")
        imported -= SYSTEM | {"__c__"}
        for module in sorted(imported - set(declared)):
            problems.append(f"{name} imports {module} but Package.swift does not declare it")
        for module in sorted(set(declared) - imported):
            if (name, module) not in DECLARED_UNIMPORTED:
                problems.append(f"{name} declares {module} but never imports it")
    for p in problems:
        print("package-imports:", p)
    if not problems:
        print("package-imports: every import is declared and every declared dependency is imported")
    return 1 if problems else 0

if __name__ == "__main__":
    sys.exit(main())
