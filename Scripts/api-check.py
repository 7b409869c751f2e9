#!/usr/bin/env python3
"""API stability check: the library products against the latest release.

Reads the latest release from RELEASES (one "<version> <commit>" line per release, newest last),
runs `swift package diagnose-api-breaking-changes <commit>` for the library products and fails
on a breaking change that CHANGELOG.md does not announce. A break is announced when the
`## [Unreleased]` section

  - names the next version on a line `Next version: X.Y.Z`, and that version may break source
    under the README's policy (a new major version; while the major version is 0, a new minor
    version: 0.1.x -> 0.2.0), and
  - lists the break under `### Breaking`, with the tool's message (the text after
    "API breakage: ") quoted verbatim somewhere in that list.

Breaks of declarations the release had as `package` (the tool compares those too) are shown as
ignored: they are not API. The tool reports ABI-level changes too (for example a new trailing defaulted parameter, which
leaves call sites compiling); such an item is still listed, with a note that sources keep
compiling, so that every change the tool sees has been looked at by a person.

    Scripts/api-check.py                      check (builds the release in .build/…/apidiff)
    Scripts/api-check.py --print-breaks       only list what the tool reports, never fail
"""

import argparse
import os
import re
import subprocess
import sys

PRODUCTS = ["WireKit", "PubSubProtocol", "PubSubClient", "PubSubBroker"]
BREAK_MARKER = "API breakage: "


def parse_releases(text):
    """The (version, commit) pairs of RELEASES, oldest first."""
    releases = []
    for number, line in enumerate(text.splitlines(), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        fields = line.split()
        if len(fields) < 2 or not re.fullmatch(r"\d+\.\d+\.\d+", fields[0]) \
                or not re.fullmatch(r"[0-9a-f]{7,40}", fields[1]):
            raise ValueError(f"RELEASES line {number}: expected '<major.minor.patch> <commit>', got {line!r}")
        releases.append((fields[0], fields[1]))
    return releases


def parse_breaks(output):
    """The messages of the tool's "API breakage: …" lines, in order, without duplicates."""
    breaks = []
    for line in output.splitlines():
        index = line.find(BREAK_MARKER)
        if index >= 0:
            message = line[index + len(BREAK_MARKER):].strip()
            if message and message not in breaks:
                breaks.append(message)
    return breaks


def declared_name(message):
    """(type, member) of a break message such as "func SharedQueues.runBlocking(label:_:) has
    been renamed …" -> ("SharedQueues", "runBlocking"); member is None for a type itself."""
    words = message.split()
    # "func X.y(...)", "var X.y", "constructor X.init(...)", "struct X", "enumelement X.y"
    qualified = words[1] if len(words) > 1 else ""
    parts = re.match(r"([A-Za-z_]\w*)(?:\.([A-Za-z_]\w*))?", qualified)
    if not parts:
        return None, None
    return parts.group(1), parts.group(2)


PACKAGE_TYPE = r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*package\s+(?:final\s+)?(?:enum|struct|class|actor|protocol)\s+{name}\b"
PACKAGE_MEMBER = (r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*package\s+(?:static\s+|mutating\s+|final\s+|nonisolated\s+|convenience\s+)*"
                  r"(?:func|var|let|init|case|subscript)\s+{name}\b")


def is_package_declaration(type_name, member, sources):
    """Whether the release declared this as `package` (not API): the type itself, or the member
    in a file that names the type. `sources` maps file paths to the release's text."""
    if not type_name:
        return False
    type_pattern = re.compile(PACKAGE_TYPE.format(name=re.escape(type_name)), re.M)
    if any(type_pattern.search(text) for text in sources.values()):
        return True
    if member and member != "init":
        member_pattern = re.compile(PACKAGE_MEMBER.format(name=re.escape(member)), re.M)
        return any(type_name in text and member_pattern.search(text) for text in sources.values())
    return False


def release_sources(commit):
    """The Swift sources under Sources/ at `commit`, path -> text."""
    listing = subprocess.run(["git", "ls-tree", "-r", "--name-only", commit, "--", "Sources"],
                             capture_output=True, text=True, check=True).stdout.split()
    sources = {}
    for path in listing:
        if path.endswith(".swift"):
            sources[path] = subprocess.run(["git", "show", f"{commit}:{path}"], capture_output=True,
                                           text=True, check=True).stdout
    return sources


def unreleased_section(changelog):
    """The text of the `## [Unreleased]` section, or None when there is none."""
    match = re.search(r"^## \[Unreleased\][^\n]*\n(.*?)(?=^## \[|\Z)", changelog, re.M | re.S)
    return match.group(1) if match else None


def subsection(section, title):
    """The text under `### <title>` inside a section, or ''."""
    match = re.search(rf"^### {re.escape(title)}[^\n]*\n(.*?)(?=^### |\Z)", section, re.M | re.S)
    return match.group(1) if match else ""


def version_tuple(version):
    return tuple(int(part) for part in version.split("."))


def may_break(released, nxt):
    """Whether `nxt` may break source relative to `released` under the README's policy."""
    old, new = version_tuple(released), version_tuple(nxt)
    if old[0] == 0:
        return new[0] > 0 or new[1] > old[1]
    return new[0] > old[0]


def judge(released, breaks, changelog):
    """The problems (empty when the breaks are all announced as the policy asks)."""
    if not breaks:
        return []
    section = unreleased_section(changelog)
    if section is None:
        return ["CHANGELOG.md has no '## [Unreleased]' section to announce the breaking changes in"]
    problems = []
    match = re.search(r"^Next version: (\d+\.\d+\.\d+)\s*$", section, re.M)
    if not match:
        problems.append("the [Unreleased] section does not name the next version "
                        "('Next version: X.Y.Z'); breaking changes need a version that may break")
    elif not may_break(released, match.group(1)):
        problems.append(f"Next version {match.group(1)} may not break source after {released} "
                        "(README, Versioning: a new major version, or a new minor version before 1.0)")
    listed = " ".join(subsection(section, "Breaking").split())
    for message in breaks:
        if " ".join(message.split()) not in listed:
            problems.append(f"not listed under '### Breaking': {message}")
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--print-breaks", action="store_true", help="list the breaks, never fail")
    arguments = parser.parse_args()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    os.chdir(root)
    with open("RELEASES") as file:
        releases = parse_releases(file.read())
    if not releases:
        print("api-check: no release in RELEASES yet; nothing to compare with")
        return 0
    version, commit = releases[-1]
    if subprocess.run(["git", "cat-file", "-e", f"{commit}^{{commit}}"], capture_output=True).returncode != 0:
        print(f"api-check: release {version}'s commit {commit} is not in this clone "
              "(a shallow clone? fetch the whole history, e.g. actions/checkout with fetch-depth: 0)",
              file=sys.stderr)
        return 1
    command = ["swift", "package", "diagnose-api-breaking-changes", commit, "--products", *PRODUCTS]
    print(f"api-check: {version} ({commit}) against the working tree: {' '.join(command)}", flush=True)
    run = subprocess.run(command, capture_output=True, text=True)
    output = run.stdout + run.stderr
    breaks = parse_breaks(output)
    if run.returncode != 0 and not breaks:
        print(output[-4000:], file=sys.stderr)
        print(f"api-check: the tool failed (exit {run.returncode}) without reporting a break", file=sys.stderr)
        return 1
    # The tool also compares `package` declarations, which are not API (README, Versioning).
    sources = release_sources(commit) if breaks else {}
    internal = [m for m in breaks if is_package_declaration(*declared_name(m), sources)]
    breaks = [m for m in breaks if m not in internal]
    for message in internal:
        print(f"  ignored (package, not API): {message}")
    for message in breaks:
        print(f"  reported: {message}")
    if arguments.print_breaks:
        return 0
    with open("CHANGELOG.md") as file:
        problems = judge(version, breaks, file.read())
    if problems:
        for problem in problems:
            print(f"api-check: {problem}", file=sys.stderr)
        print(f"api-check: {len(breaks)} breaking change(s) since {version}, {len(problems)} problem(s)", file=sys.stderr)
        return 1
    print(f"api-check: {len(breaks)} breaking change(s) since {version}, "
          + ("all announced in CHANGELOG.md" if breaks else "source-compatible"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
