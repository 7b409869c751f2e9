#!/usr/bin/env python3
"""Checks the relative links of the README, Docs/*.md and the DocC catalogs' articles.

Every `[text](target)` whose target is not a URL must name a file or folder that exists
(relative to the page), and a `#fragment` must match a heading of the target page as GitHub
slugs it. Links inside code blocks and code spans are ignored. Exits 1 and lists each broken
link with its page and line.

    Scripts/check-links.py          from anywhere; checks the repository this script is in
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^\s*(```|~~~)")
CODE_SPAN = re.compile(r"`[^`]*`")


def pages():
    yield ROOT / "README.md"
    yield from sorted((ROOT / "Docs").glob("*.md"))
    yield from sorted((ROOT / "Sources").glob("*/*.docc/**/*.md"))


def prose_lines(path):
    """(line number, text) of the lines outside fenced code blocks, code spans removed."""
    fenced = False
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced:
            yield number, CODE_SPAN.sub("", line)


def slug(heading):
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def anchors(path):
    found = set()
    for _, line in prose_lines(path):
        match = re.match(r"#{1,6}\s+(.*?)\s*#*\s*$", line)
        if match:
            found.add(slug(match.group(1)))
    return found


def main():
    broken = []
    checked = 0
    for page in pages():
        for number, line in prose_lines(page):
            for target in LINK.findall(line):
                if re.match(r"[a-z][a-z0-9+.-]*:", target, re.I):   # http:, https:, mailto:, doc:
                    continue
                checked += 1
                file_part, _, fragment = target.partition("#")
                destination = (page.parent / file_part).resolve() if file_part else page
                where = f"{page.relative_to(ROOT)}:{number}: {target}"
                if not destination.exists():
                    broken.append(f"{where}: no such file")
                elif fragment and destination.suffix == ".md" and fragment not in anchors(destination):
                    broken.append(f"{where}: no heading #{fragment}")
    for line in broken:
        print(line, file=sys.stderr)
    print(f"check-links: {checked} relative link(s), {len(broken)} broken")
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
