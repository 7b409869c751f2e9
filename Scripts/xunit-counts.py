#!/usr/bin/env python3
"""Print 'PASSED FAILED' counted from an xUnit XML file written by `swift test --xunit-output`."""
import sys
import xml.etree.ElementTree as ET

try:
    root = ET.parse(sys.argv[1]).getroot()
except (OSError, ET.ParseError, IndexError):
    print("0 0")
    sys.exit(0)
cases = root.iter("testcase")
passed = failed = 0
for case in cases:
    if case.find("failure") is not None or case.find("error") is not None:
        failed += 1
    elif case.find("skipped") is None:
        passed += 1
print(passed, failed)
