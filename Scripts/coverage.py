#!/usr/bin/env python3
"""Line coverage per library module, from the JSON that `swift test --enable-code-coverage`
exports (llvm-cov's export format; `swift test --show-codecov-path` prints where it is).

    Scripts/coverage.py PATH_TO_JSON [--min MODULE_OR_FOLDER=PERCENT ...]

Prints one row per module under Sources/ (and its first-level folders for WireKit and
PubSubClient, where the sans-I/O cores live), then exits 1 if a --min threshold is not met.
"""
import json
import sys
from collections import defaultdict

# Folders reported on their own besides their module: the cores the project aims to cover best.
FOLDERS = ("WireKit/", "PubSubClient/")


def main(argv):
    if len(argv) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    path = argv[1]
    minimums = {}
    rest = argv[2:]
    while rest:
        if rest[0] != "--min" or len(rest) < 2 or "=" not in rest[1]:
            print(f"coverage.py: unexpected argument {rest[0]}", file=sys.stderr)
            return 2
        name, percent = rest[1].split("=", 1)
        minimums[name] = float(percent)
        rest = rest[2:]

    with open(path) as handle:
        export = json.load(handle)
    covered = defaultdict(int)
    total = defaultdict(int)
    for data in export["data"]:
        for entry in data["files"]:
            filename = entry["filename"]
            marker = "/Sources/"
            if marker not in filename:
                continue  # tests, fixtures, generated runners
            relative = filename.split(marker, 1)[1]
            module = relative.split("/", 1)[0]
            lines = entry["summary"]["lines"]
            keys = [module]
            if relative.startswith(FOLDERS) and relative.count("/") >= 2:
                keys.append("/".join(relative.split("/")[:2]))
            for key in keys:
                covered[key] += lines["covered"]
                total[key] += lines["count"]

    print(f"{'module / folder':<34} {'lines':>7} {'covered':>8} {'cover':>7}")
    for key in sorted(total):
        percent = 100.0 * covered[key] / total[key] if total[key] else 100.0
        indent = "  " if "/" in key else ""
        print(f"{indent + key:<34} {total[key]:>7} {covered[key]:>8} {percent:>6.1f}%")

    failed = False
    for name, minimum in minimums.items():
        if name not in total:
            print(f"coverage.py: nothing measured for {name}", file=sys.stderr)
            failed = True
            continue
        percent = 100.0 * covered[name] / total[name]
        if percent < minimum:
            print(f"coverage.py: {name} has {percent:.1f}% of lines covered, below {minimum}%", file=sys.stderr)
            failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
