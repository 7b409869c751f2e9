#!/usr/bin/env python3
"""Fails on Swift features whose runtime support Apple platforms ship only after this package's
deployment targets (Package.swift `platforms:`), in the Apple view of the sources.

On an Apple target the compiler refuses these itself ("runtime support for typed throws function
types is only available in iOS 18.0.0 or newer"); a Linux compile never applies Apple availability,
so Scripts/apple-compile-check.sh dumps each module's type-checked AST (`swiftc -dump-ast`, Apple
view, against the stand-ins) and this script looks in the dumps for:

  typed-throws-value   a function type with a typed `throws(E)` (E not `any Error` or `Never`)
                       whose runtime metadata is needed: a generic argument (an array element,
                       `withLock`'s result, a sequence), a metatype (`F.self`) or a value
                       converted to an existential. Calling typed-throws functions and passing
                       closures to them directly needs no metadata and is fine.
                       Swift 6.0 runtime: macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2.
  isolated-any-value   the same for `@isolated(any)` function types (Swift 6.0 runtime).
  parameter-pack-type  a struct, class, enum or actor with a parameter pack (`<each T>`).
                       Swift 5.9 runtime: macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1.
  newer-api            a reference to a declaration of the toolchain's own modules (Swift,
                       _Concurrency, Synchronization, Observation, ...) whose `@available` in the
                       toolchain's .swiftinterface is newer than a deployment target on every
                       overload of that name: `Mutex`, `Atomic`, `withTaskExecutorPreference`,
                       `Observable`, ... (the interface's own versions are quoted).
  newer-module         an `import` of Synchronization (macOS 15, iOS 18, tvOS 18, watchOS 11) or
                       Observation (macOS 14, iOS 17, tvOS 17, watchOS 10).

A use guarded by `if #available` / `@available` is not recognised as such: mark its line (or the
line above) with a comment containing `apple-runtime-check: guarded` and the check passes it.

    Scripts/apple-runtime-check.py AST_DIR SOURCES_TSV   exit 1 and one line per finding
"""
import glob
import itertools
import os
import re
import sys
from collections import defaultdict

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
PLATFORMS = ("macOS", "iOS", "tvOS", "watchOS")
SWIFT_6_0 = {"macOS": (15, 0, 0), "iOS": (18, 0, 0), "tvOS": (18, 0, 0), "watchOS": (11, 0, 0)}
SWIFT_5_9 = {"macOS": (14, 0, 0), "iOS": (17, 0, 0), "tvOS": (17, 0, 0), "watchOS": (10, 0, 0)}
NEWER_MODULES = {"Synchronization": SWIFT_6_0, "Observation": SWIFT_5_9}
TOOLCHAIN_MODULES = ("Swift", "_Concurrency", "Synchronization", "Observation", "_StringProcessing",
                     "RegexBuilder", "Distributed")
GUARD_MARK = "apple-runtime-check: guarded"


def version(text):
    parts = [int(part) for part in text.split(".")]
    return tuple(parts + [0] * (3 - len(parts)))


def spelled(versions):
    def short(v):
        v = list(v)
        while len(v) > 1 and v[-1] == 0:
            v.pop()
        return ".".join(map(str, v))
    return ", ".join(f"{p} {short(versions[p])}" for p in PLATFORMS if p in versions)


def deployment_targets():
    """{'macOS': (13,), ...} from Package.swift's `platforms:`."""
    manifest = open(os.path.join(ROOT, "Package.swift")).read()
    targets = {}
    for platform, major, minor in re.findall(r"\.(macOS|iOS|tvOS|watchOS)\(\.v(\d+)(?:_(\d+))?\)", manifest):
        targets[platform] = (int(major), int(minor or 0), 0)
    if not targets:
        sys.exit("apple-runtime-check: no platforms in Package.swift")
    return targets


def newer_than_targets(versions, targets):
    """The platforms on which `versions` (from an @available) is newer than the deployment target."""
    return [p for p in targets if p in versions and versions[p] > targets[p]]


# MARK: The toolchain's interfaces: availability per declaration name

AVAILABLE = re.compile(r"@available\(([^)]*)\)")
DECL = re.compile(
    r"^(\s*)(?:@[\w:]+(?:\([^)]*\))?\s+)*(?:(?:public|open|final|nonisolated|static|class|mutating|"
    r"nonmutating|consuming|borrowing|indirect|override|convenience|required|dynamic|package|"
    r"__consuming|isolated)\s+)*(func|struct|class|enum|actor|protocol|typealias|var|let|init|subscript|"
    r"extension|case)\b\s*([^\s(<:{=]*)")


def parse_available(argument_text):
    versions = {}
    for platform, number in re.findall(r"\b(macOS|iOS|tvOS|watchOS)\s+([\d.]+)", argument_text):
        versions[platform] = version(number)
    return versions


def interface_availability(targets):
    """{(module, container, name): [versions of each overload]} from the toolchain's interfaces."""
    swift = os.path.realpath(os.popen("command -v swiftc").read().strip())
    library = os.path.join(os.path.dirname(os.path.dirname(swift)), "lib", "swift", "linux")
    table = defaultdict(list)
    for module in TOOLCHAIN_MODULES:
        paths = glob.glob(os.path.join(library, f"{module}.swiftmodule", "*.swiftinterface"))
        paths = [p for p in paths if not p.endswith(".private.swiftinterface")]
        if not paths:
            continue
        pending = {}
        stack = []  # (indent, container name, inherited versions)
        for line in open(paths[0], encoding="utf-8"):
            stripped = line.strip()
            if not stripped or stripped.startswith("//") or stripped.startswith("#"):
                continue
            for attribute in AVAILABLE.findall(stripped):
                pending.update(parse_available(attribute))
            match = DECL.match(line)
            if not match:
                if not stripped.startswith("@"):
                    pending = {}
                continue
            indent = len(match.group(1))
            while stack and stack[-1][0] >= indent:
                stack.pop()
            kind, name = match.group(2), match.group(3)
            inherited = dict(stack[-1][2]) if stack else {}
            versions = {**inherited, **pending}
            pending = {}
            container = stack[-1][1] if stack else ""
            if kind == "extension":
                name = name.split(".")[-1]
                if stripped.endswith("{"):
                    stack.append((indent, name, versions))
                continue
            if kind == "init":
                name = "init"
            table[(module, container, name)].append(versions)
            if kind in ("struct", "class", "enum", "actor", "protocol") and stripped.endswith("{"):
                stack.append((indent, name, versions))
    return table


# MARK: The dumps

SUBSTITUTION = "(substitution_map "
TYPED_THROWS = re.compile(r"throws\((?!any Error\)|Never\)|Swift\.Never\))")
ISOLATED_ANY = re.compile(r"@isolated\(any\)")
LOCATION = re.compile(r"location=(\S+?):(\d+):\d+")
RANGE = re.compile(r"range=\[(\S+?):(\d+):\d+")
DECL_REF = re.compile(r'decl="([A-Za-z_][\w]*)\.\(file\)\.([^"@\[]*)')
TYPE_ATTR = re.compile(r'type="([^"]*)"')


def balanced(text, start):
    """The text from `start` (an opening parenthesis) to its closing one."""
    depth = 0
    for index in range(start, len(text)):
        if text[index] == "(":
            depth += 1
        elif text[index] == ")":
            depth -= 1
            if depth == 0:
                return text[start:index + 1]
    return text[start:]


class Dumps:
    def __init__(self, directory):
        self.files = sorted(glob.glob(os.path.join(directory, "*.ast")))

    def lines(self):
        for path in self.files:
            with open(path, encoding="utf-8", errors="replace") as dump:
                yield from dump

    def aliases(self):
        """{qualified typealias name: its underlying type} over every dump."""
        found = {}
        for line in self.lines():
            if line.lstrip().startswith("(typealias "):
                qualified = re.search(r'interface_type="([^"]*)\.Type"', line)
                underlying = TYPE_ATTR.findall(line)
                if qualified and underlying:
                    found[qualified.group(1)] = underlying[-1]
        return found


def flagged_aliases(aliases, pattern):
    """The typealiases whose type matches `pattern`, directly or through another such alias."""
    flagged = {name for name, text in aliases.items() if pattern.search(text)}
    while True:
        more = {name for name, text in aliases.items() if name not in flagged
                and any(mentions(text, alias) for alias in flagged)}
        if not more:
            return flagged
        flagged |= more


def mentions(text, alias):
    simple = alias.split(".")[-1]
    return alias in text or re.search(r"(?<![\w.])" + re.escape(simple) + r"(?![\w])", text) is not None


def metadata_types(line, following):
    """The types whose runtime metadata this AST line needs: generic replacements, metatypes of
    type expressions, and the operand of a conversion to an existential."""
    found = []
    at = line.find(SUBSTITUTION)
    while at >= 0:
        found.append(balanced(line, at))
        at = line.find(SUBSTITUTION, at + 1)
    stripped = line.lstrip()
    if stripped.startswith("(type_expr "):
        found.extend(TYPE_ATTR.findall(line)[:1])
    if stripped.startswith("(erasure_expr ") and following is not None:
        found.extend(TYPE_ATTR.findall(following)[:1])
    return found


def source_line(sources, copy, number):
    original = sources.get(os.path.normpath(os.path.join(ROOT, copy)), copy)
    try:
        with open(os.path.join(ROOT, original), encoding="utf-8") as handle:
            text = handle.read().split("\n")
    except OSError:
        return original, ""
    here = text[number - 1] if 0 < number <= len(text) else ""
    above = text[number - 2] if 1 < number <= len(text) + 1 else ""
    return original, (here, above)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    dumps = Dumps(sys.argv[1])
    if not dumps.files:
        sys.exit(f"apple-runtime-check: no AST dumps in {sys.argv[1]}")
    sources = {}
    for row in open(sys.argv[2]):
        copy, original = row.rstrip("\n").split("\t")
        sources[copy] = original
    targets = deployment_targets()
    findings = {}

    def report(copy, number, rule, message):
        original, lines = source_line(sources, copy, int(number))
        if lines and any(GUARD_MARK in text for text in lines):
            return
        findings[(original, int(number), rule)] = message

    aliases = dumps.aliases()
    rules = [
        ("typed-throws-value", TYPED_THROWS, flagged_aliases(aliases, TYPED_THROWS),
         "runtime support for typed throws function types used as values (generic arguments, "
         "metatypes, existentials) is only in the Swift 6.0 runtime: " + spelled(SWIFT_6_0)),
        ("isolated-any-value", ISOLATED_ANY, flagged_aliases(aliases, ISOLATED_ANY),
         "runtime support for @isolated(any) function types used as values is only in the Swift 6.0 "
         "runtime: " + spelled(SWIFT_6_0)),
    ]
    table = interface_availability(targets)
    location = None
    previous = None
    for line in itertools.chain(dumps.lines(), [None]):
        if previous is not None:
            here = LOCATION.search(previous) or RANGE.search(previous)
            if here:
                location = (here.group(1), here.group(2))
            stripped = previous.lstrip()
            if location:
                for text in metadata_types(previous, line):
                    for rule, pattern, aliases, message in rules:
                        if pattern.search(text) or any(mentions(text, alias) for alias in aliases):
                            report(*location, rule, message)
                if re.match(r"\((struct|class|enum|actor)_decl ", stripped) and "repeat each" in previous:
                    report(*location, "parameter-pack-type",
                           "parameter packs in generic types need the Swift 5.9 runtime: " + spelled(SWIFT_5_9))
                if stripped.startswith("(import_decl "):
                    module = re.search(r'module="([^"]+)"', previous)
                    if module and module.group(1) in NEWER_MODULES:
                        versions = NEWER_MODULES[module.group(1)]
                        if newer_than_targets(versions, targets):
                            report(*location, "newer-module",
                                   f"the {module.group(1)} module is only on {spelled(versions)}")
                for module, path in DECL_REF.findall(previous):
                    if module not in TOOLCHAIN_MODULES:
                        continue
                    path = re.sub(r"\(.*$", "", path.strip())
                    parts = [part.replace(" extension", "") for part in path.split(".") if part]
                    if not parts:
                        continue
                    name = parts[-1]
                    container = parts[-2] if len(parts) > 1 else ""
                    overloads = table.get((module, container, name))
                    if not overloads:
                        continue
                    if all(newer_than_targets(v, targets) for v in overloads):
                        newest = min(overloads, key=lambda v: sorted(v.items()))
                        report(*location, "newer-api",
                               f"{module}.{'.'.join(parts)} is only available from {spelled(newest)} "
                               f"(the toolchain's {module}.swiftinterface)")
        previous = line

    for (original, number, rule), message in sorted(findings.items()):
        print(f"{original}:{number}: error: [{rule}] {message}; this package supports "
              f"{spelled(targets)} (Package.swift platforms)")
    if findings:
        print(f"apple-runtime-check: {len(findings)} use(s) of runtime support newer than the deployment targets",
              file=sys.stderr)
        return 1
    print(f"apple-runtime-check: no feature needs a runtime newer than {spelled(targets)} "
          f"({len(dumps.files)} module dumps)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
