#!/usr/bin/env bash
# Builds wirebench (release) and runs the shared WebSocket client benchmark with it beside the
# reference clients, in one run of the runner.
#   Scripts/bench/run-comparison.sh BENCH_DIR [run.sh options ...]
# BENCH_DIR is the shared bench folder (run.sh, CONTRACT.md). Example:
#   Scripts/bench/run-comparison.sh ../shared/bench --wait-idle 120 --with-reference-clients --reps 3 --out results.json
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
bench="${1:?usage: run-comparison.sh BENCH_DIR [run.sh options ...]}"
shift
swift build -c release --package-path "$root" --product wirebench >&2
bin="$(swift build -c release --package-path "$root" --show-bin-path)"
exec "$bench/run.sh" "$@" "wirekit=$bin/wirebench"
