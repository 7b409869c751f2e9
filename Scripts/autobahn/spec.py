#!/usr/bin/env python3
"""Writes the Autobahn|Testsuite spec for either role (run.sh: the fuzzing server tests a client;
run-server.sh: the fuzzing client tests a server).

    spec.py server SPEC_PATH URL REPORT_DIR CASES EXCLUDE
    spec.py client SPEC_PATH URL REPORT_DIR CASES EXCLUDE AGENT

CASES and EXCLUDE are comma-separated case patterns ("1", "9.1.*", "12.1.1"); a bare section
number stands for all of its cases. Exits 1 on a malformed pattern.
"""
import json, re, sys


def patterns(text):
    out = []
    for p in (x.strip() for x in text.split(",")):
        if not p:
            continue
        if re.fullmatch(r"\d+", p):
            p += ".*"
        if not re.fullmatch(r"[0-9.*]+", p):
            sys.exit("bad case pattern %r" % p)
        out.append(p)
    return out


def main(argv):
    role, path, url, outdir, cases, exclude = argv[:6]
    spec = {"outdir": outdir, "cases": patterns(cases) or ["*"], "exclude-cases": patterns(exclude),
            "exclude-agent-cases": {}}
    if role == "server":    # the fuzzing server: clients connect to url
        spec["url"] = url
    elif role == "client":  # the fuzzing client: connects to the server at url
        spec["servers"] = [{"agent": argv[6], "url": url}]
    else:
        sys.exit("role must be server or client, not %r" % role)
    with open(path, "w") as f:
        json.dump(spec, f, indent=2)


if __name__ == "__main__":
    main(sys.argv[1:])
