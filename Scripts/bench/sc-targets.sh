#!/usr/bin/env bash
# The SocketCluster hot-path targets in one run (see sc-targets.py): builds pubsubbench and
# wirebench (release), sc_echo and ws_echo from the shared bench folder, and the malloc counter.
#   Scripts/bench/sc-targets.sh BENCH_DIR [--baseline-bin DIR] [--reps N] [--async-face]
# BENCH_DIR is the shared bench folder (server/sc_echo.c, server/ws_echo.c). --baseline-bin is the
# release bin folder of an older build (its pubsubbench runs the baseline broker figures).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
bench="${1:?usage: sc-targets.sh BENCH_DIR [--baseline-bin DIR] [--reps N]}"
shift
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
cc -O3 -march=native -o "$scratch/sc_echo" "$bench/server/sc_echo.c"
cc -O3 -march=native -o "$scratch/ws_echo" "$bench/server/ws_echo.c"
cc -O2 -shared -fPIC -o "$scratch/malloc_count.so" "$root/Scripts/bench/malloc_count.c" -ldl
swift build -c release --package-path "$root" --product pubsubbench >&2
swift build -c release --package-path "$root" --product wirebench >&2
bin="$(swift build -c release --package-path "$root" --show-bin-path)"
ulimit -n 20000 || true
exec python3 "$root/Scripts/bench/sc-targets.py" --bin "$bin" --servers "$scratch" \
    --malloc-count "$scratch/malloc_count.so" "$@"
