#!/usr/bin/env python3
"""Abstract coverage of one DocC archive, from the `documentation-coverage.json` that
`docc convert --experimental-documentation-coverage` writes into it.

    Scripts/docs-coverage.py ARCHIVE [--symbol-graphs DIR]

Prints one line per module (`Types`, `Members`, `Globals`, counted as docc's own summary
counts them), then every symbol whose `hasAbstract` is false (its DocC path and, given the
symbol graphs, its file and line). Exits 1 when any symbol lacks an abstract.
"""
import glob
import json
import os
import re
import sys

TYPES = {"class", "structure", "enumeration", "protocol", "typeAlias"}
GLOBALS = {"module", "operator", "function", "globalVariable", "macro", "var", "func"}
# Pages that are not symbols of the module's API (topic groups, articles).
NOT_COUNTED = {"collectionGroup", "article", "tutorial", "overview"}


def group(entry):
    kind = entry["kind"]["id"].rsplit(".", 1)[-1]
    if kind in NOT_COUNTED or not entry["kind"].get("isSymbol", True):
        return None
    if kind in TYPES:
        return "Types"
    if kind in GLOBALS:
        return "Globals"
    return "Members"


def locations(symbol_graph_dir):
    """Maps a symbol's path components to where it is declared."""
    where = {}
    for path in glob.glob(os.path.join(symbol_graph_dir, "*.symbols.json")):
        with open(path) as f:
            graph = json.load(f)
        for symbol in graph.get("symbols", []):
            loc = symbol.get("location")
            if not loc:
                continue
            uri = loc["uri"].removeprefix("file://")
            uri = os.path.relpath(uri) if uri.startswith("/") else uri
            # docc's paths spell an operator's name as `_` (`<(_:_:)` is `_(_:_:)`).
            line = f"{uri}:{loc['position']['line'] + 1}"
            key = tuple(symbol["pathComponents"])
            where.setdefault(key, []).append(line)
            operator = tuple(re.sub(r"^[^A-Za-z_(]+\(", "_(", c) for c in key)
            if operator != key:
                where.setdefault(operator, []).append(line)
    return where


def main(argv):
    args = argv[1:]
    if not args or args[0].startswith("-"):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    archive, args = args[0], args[1:]
    graphs = None
    if "--symbol-graphs" in args:
        graphs = args[args.index("--symbol-graphs") + 1]
    with open(os.path.join(archive, "documentation-coverage.json")) as f:
        entries = json.load(f)

    counts = {"Types": [0, 0], "Members": [0, 0], "Globals": [0, 0]}
    missing = []
    module = None
    for entry in entries:
        g = group(entry)
        if g is None:
            continue
        if entry["kind"]["id"].endswith(".module"):
            module = entry["title"]
        counts[g][1] += 1
        if entry["hasAbstract"]:
            counts[g][0] += 1
        else:
            missing.append(entry["referencePath"])

    def cell(name):
        done, total = counts[name]
        percent = 100.0 * done / total if total else 100.0
        return f"{name} {percent:.0f}% ({done}/{total})"

    module = module or os.path.basename(archive.rstrip("/")).split(".")[0]
    print(f"{module}: abstracts {cell('Types')}, {cell('Members')}, {cell('Globals')}")
    if missing:
        where = locations(graphs) if graphs else {}
        print(f"{module}: {len(missing)} symbol(s) without an abstract:")
        for ref in sorted(missing):
            parts = ref.split("/documentation/", 1)[-1].split("/")[1:]
            key = tuple(parts)
            found = where.get(key)
            if not found and parts:
                # docc appends a disambiguation suffix (`-5hy7e`, `-swift.property`) to overloads.
                base = re.sub(r"-(swift\.[a-z.]+|[0-9a-z]{4,6})$", "", parts[-1])
                found = where.get(tuple(parts[:-1]) + (base,))
            print(f"  {'/'.join(parts) or module}  {', '.join(found) if found else ''}".rstrip())
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
