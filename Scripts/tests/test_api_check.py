"""Tests of Scripts/api-check.py's rules (run: python3 -m unittest discover -s Scripts/tests)."""

import importlib.util
import os
import unittest

_path = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "api-check.py")
_spec = importlib.util.spec_from_file_location("api_check", _path)
api_check = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(api_check)

TOOL_OUTPUT = """Building for debugging...
warning: 'x-checkout': found 1 file(s) which are unhandled
  💔 API breakage: func PubSubClient.ping() has been removed
  💔 API breakage: enumelement SessionEvent.stalled has been added as a new enum case
  💔 API breakage: func PubSubClient.ping() has been removed
"""

REMOVED = "func PubSubClient.ping() has been removed"
ADDED = "enumelement SessionEvent.stalled has been added as a new enum case"


def changelog(next_version, *listed):
    lines = ["# Changelog", "", "## [Unreleased]", ""]
    if next_version:
        lines += [f"Next version: {next_version}", ""]
    lines += ["### Added", "", "- Something new.", "", "### Breaking", ""]
    lines += [f"- `{item}`: why." for item in listed]
    lines += ["", "## [0.1.0] - 2026-11-26", "", "### Breaking", "", f"- `{ADDED}` (old)", ""]
    return "\n".join(lines)


class ApiCheckTests(unittest.TestCase):
    def test_breaks_are_read_from_the_tool_output_once_each(self):
        self.assertEqual(api_check.parse_breaks(TOOL_OUTPUT), [REMOVED, ADDED])

    def test_no_break_needs_no_announcement(self):
        self.assertEqual(api_check.judge("0.1.0", [], "# Changelog\n"), [])

    def test_announced_breaks_in_a_breaking_version_pass(self):
        self.assertEqual(api_check.judge("0.1.0", [REMOVED, ADDED], changelog("0.2.0", REMOVED, ADDED)), [])
        self.assertEqual(api_check.judge("1.4.2", [REMOVED], changelog("2.0.0", REMOVED)), [])

    def test_an_unlisted_break_fails_even_when_an_older_release_lists_it(self):
        problems = api_check.judge("0.1.0", [REMOVED, ADDED], changelog("0.2.0", REMOVED))
        self.assertEqual(len(problems), 1)
        self.assertIn(ADDED, problems[0])

    def test_a_patch_or_minor_release_may_not_break(self):
        self.assertTrue(api_check.judge("0.1.0", [REMOVED], changelog("0.1.1", REMOVED)))
        self.assertTrue(api_check.judge("1.4.2", [REMOVED], changelog("1.5.0", REMOVED)))

    def test_breaks_without_a_next_version_fail(self):
        problems = api_check.judge("0.1.0", [REMOVED], changelog(None, REMOVED))
        self.assertEqual(len(problems), 1)
        self.assertIn("Next version", problems[0])

    def test_releases_file_lists_versions_and_commits(self):
        text = "# version commit\n0.1.0 0123abc  # first\n\n0.2.0 89abcdef0123\n"
        self.assertEqual(api_check.parse_releases(text), [("0.1.0", "0123abc"), ("0.2.0", "89abcdef0123")])
        with self.assertRaises(ValueError):
            api_check.parse_releases("v0.1 main\n")

    def test_policy_versions(self):
        self.assertTrue(api_check.may_break("0.1.3", "0.2.0"))
        self.assertTrue(api_check.may_break("0.9.0", "1.0.0"))
        self.assertFalse(api_check.may_break("0.1.0", "0.1.5"))
        self.assertTrue(api_check.may_break("1.2.0", "2.0.0"))
        self.assertFalse(api_check.may_break("1.2.0", "1.9.0"))

    def test_breaks_of_package_declarations_are_recognised(self):
        sources = {
            "Sources/WireKit/SharedQueues.swift": "package enum SharedQueues {\n    package static func runBlocking() {}\n}\n",
            "Sources/PubSubClient/PubSubError.swift": "public struct PubSubError {\n    public var code: Code\n}\n"
            + "extension PubSubError {\n    package static func timeout(event: String) -> PubSubError { .init() }\n}\n",
        }
        check = lambda message: api_check.is_package_declaration(*api_check.declared_name(message), sources)
        self.assertTrue(check("func SharedQueues.runBlocking(label:_:) has been renamed to func runBlocking(_:)"))
        self.assertTrue(check("func PubSubError.timeout(event:) has been removed"))
        self.assertFalse(check("var PubSubError.code has been removed"))
        self.assertFalse(check("func ScClient.isConnected() has been removed"))
        self.assertFalse(check("struct PubSubError has been removed"))


if __name__ == "__main__":
    unittest.main()
