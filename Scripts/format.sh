#!/usr/bin/env bash
# The toolchain's own swift-format (no package dependency) with the repository's .swift-format,
# over every Swift file of the package: the libraries, tests, benchmarks, conformance clients,
# fuzz harness and the manifest.
#
#   Scripts/format.sh --check   lint, strict: fails on any line the formatter would change and
#                               on any finding of an enabled rule (file:line: error: [Rule] ...)
#   Scripts/format.sh --fix     formats every file in place (then run --check: a few rules,
#                               such as an end-of-line comment past the line length, need a hand)
set -euo pipefail
cd "$(dirname "$0")/.."
PATHS=(Sources Tests Benchmarks Conformance Fuzz Package.swift)
usage() { echo "usage: Scripts/format.sh --check | --fix" >&2; }
command -v swift-format >/dev/null || { echo "format.sh: swift-format not found (it ships with the Swift toolchain)" >&2; exit 1; }
case "${1:-}" in
    --check) exec swift-format lint --strict --recursive --parallel --configuration .swift-format "${PATHS[@]}" ;;
    --fix) exec swift-format format --in-place --recursive --parallel --configuration .swift-format "${PATHS[@]}" ;;
    -h|--help) usage; exit 0 ;;
    *) usage; exit 2 ;;
esac
