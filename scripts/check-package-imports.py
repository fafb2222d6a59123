#!/usr/bin/env python3
"""Package.swift tells the truth: every module a target imports is declared as its dependency, and every
declared dependency is imported somewhere in the target; and the C libraries below each module are the ones
`MAY_REACH_C` says, so a pure module (BrowserCore's state, the media core, the settings) cannot start linking
chafa, curl or libav by a new dependency. Reads `swift package dump-package`; exit 1 with one line per mismatch. (SwiftPM's --explicit-target-dependency-import-check accepts transitive dependencies and
never reports unused ones, so it cannot check this alone.)"""
import json, os, re, subprocess, sys

# Modules that come with the toolchain, not from Package.swift.
SYSTEM = {"Foundation", "FoundationEssentials", "FoundationNetworking", "FoundationXML", "Glibc", "Darwin",
          "Dispatch", "XCTest", "Testing", "Swift", "_Concurrency", "Synchronization"}
# Declared on purpose although nothing imports them.
DECLARED_UNIMPORTED = {
    ("EndToEndTests", "livegrid"): "the end-to-end tests run the built binary, so it must be built first",
}
# The C targets (system libraries and C sources) each Swift module may reach through its dependencies, exactly:
# a module not listed reaches none. A test target may reach what the modules it tests may (and its own C
# imports). Shrinking a set is the point; growing one is a design decision (say why in DECISIONS.md).
IMAGING_C = {"CTurboJPEG", "CJPEGScans", "CHeif", "CFFmpeg", "CCodecLoader", "CPNG", "CGLib"}
LIBRARY_C = {"CCurl", "CGLib", "CSQLite"}
MAY_REACH_C = {
    "Imaging": IMAGING_C,
    "VideoPlayback": IMAGING_C,
    "TerminalGraphics": IMAGING_C | {"CChafa"},
    "LibrarySources": {"CCurl", "CGLib"},
    "LibraryIndex": {"CSQLite"},
    "Library": LIBRARY_C,
    "LiveStudio": IMAGING_C | LIBRARY_C,
    "BrowserRuntime": IMAGING_C | LIBRARY_C | {"CChafa"},
    "TerminalUI": IMAGING_C | LIBRARY_C | {"CChafa", "CNCurses"},
    "livegrid": IMAGING_C | LIBRARY_C | {"CChafa", "CNCurses", "CAllocator"},
    "remote-bench": LIBRARY_C,
}
C_SOURCES = {"CCodecLoader", "CJPEGScans"}   # C targets that are not system libraries

def c_reach_problems(dump):
    targets = {t["name"]: t for t in dump["targets"]}
    def deps(target):
        names = [d.get("byName", d.get("target", [None]))[0] for d in target["dependencies"]]
        return [n for n in names if n in targets]
    c_targets = {n for n, t in targets.items() if t["type"] == "system"} | C_SOURCES
    def reach(name, seen):
        for dep in deps(targets[name]):
            if dep not in seen:
                seen.add(dep)
                reach(dep, seen)
        return seen
    problems = []
    for name, target in targets.items():
        if name in c_targets or target["type"] == "system":
            continue
        reached = reach(name, set()) & c_targets
        if target["type"] == "test":
            allowed = set().union(*[MAY_REACH_C.get(d, set()) | ({d} & c_targets) for d in deps(target)])
            for c in sorted(reached - allowed):
                problems.append(f"{name} reaches {c}, which none of the modules it tests may reach")
            continue
        allowed = MAY_REACH_C.get(name, set())
        for c in sorted(reached - allowed):
            problems.append(f"{name} reaches {c} but MAY_REACH_C does not allow it")
        for c in sorted(allowed - reached):
            problems.append(f"{name} no longer reaches {c}: shrink MAY_REACH_C")
    return problems

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
    imports_ok = not problems
    problems += c_reach_problems(dump)
    for p in problems:
        print("package-imports:", p)
    if imports_ok:
        print("package-imports: every import is declared and every declared dependency is imported")
    if not any("reach" in p for p in problems):
        c_free = sorted(t["name"] for t in dump["targets"] if t["type"] != "system"
                        and t["name"] not in C_SOURCES and t["name"] not in MAY_REACH_C and t["type"] != "test")
        print("package-imports: C below each module as MAY_REACH_C says; no C below", ", ".join(c_free))
    return 1 if problems else 0

if __name__ == "__main__":
    sys.exit(main())
