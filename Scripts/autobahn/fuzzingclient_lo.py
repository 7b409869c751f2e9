# -*- coding: utf-8 -*-
"""Run the Autobahn|Testsuite fuzzing client against one server (Python 2.7).

Equivalent to `wstest -m fuzzingclient -s SPEC`, except that
  * it validates the case selection and writes the resolved case list to CASES_JSON
    (used by summarise.py),
  * on SIGTERM/SIGINT it writes the reports of the cases run so far.

Usage: python fuzzingclient_lo.py SPEC_JSON CASES_JSON
"""
from __future__ import print_function

import json
import sys

# choosereactor installs the epoll reactor; it must run before the reactor is imported
from autobahntestsuite import choosereactor  # noqa: F401
from autobahntestsuite import fuzzing
from twisted.internet import reactor


def main():
    spec_path, cases_path = sys.argv[1], sys.argv[2]
    spec = json.load(open(spec_path))

    case_set = fuzzing.CaseSet(fuzzing.CaseSetname, fuzzing.CaseBasename, fuzzing.Cases,
                               fuzzing.CaseCategories, fuzzing.CaseSubCategories)
    cases = case_set.parseSpecCases(spec)
    unknown = [c for c in cases if c not in case_set.CasesIndices]
    if unknown:
        print("fuzzingclient_lo: unknown case id(s) %s (use a pattern such as 1.1.* for a group)"
              % ", ".join(unknown))
        sys.exit(2)
    if not cases:
        print("fuzzingclient_lo: the case selection is empty")
        sys.exit(2)
    with open(cases_path, "w") as f:
        json.dump(cases, f)

    state = {"reported": False, "factory": None}
    orig_create_reports = fuzzing.FuzzingClientFactory.createReports

    def create_reports(self, *a, **kw):
        state["reported"] = True
        return orig_create_reports(self, *a, **kw)

    fuzzing.FuzzingClientFactory.createReports = create_reports
    orig_init = fuzzing.FuzzingClientFactory.__init__

    def init(self, *a, **kw):
        state["factory"] = self
        return orig_init(self, *a, **kw)

    fuzzing.FuzzingClientFactory.__init__ = init

    def final_reports():
        if not state["reported"] and state["factory"] is not None:
            print("fuzzingclient_lo: writing reports on shutdown")
            state["factory"].createReports()

    reactor.addSystemEventTrigger("before", "shutdown", final_reports)
    fuzzing.startClient(spec)
    sys.stdout.flush()
    reactor.run()


if __name__ == "__main__":
    main()
