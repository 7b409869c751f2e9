#!/usr/bin/env bash
# Runs the micro-benchmarks (release) and the shared bench's XOR-unmask reference on the same
# 64 MiB buffer, and prints our unmasking and 1 MiB decode as a share of the reference.
#   Scripts/bench/microbench.sh BENCH_DIR
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
bench="${1:?usage: microbench.sh BENCH_DIR}"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
cc -O3 -o "$scratch/xor_unmask" "$bench/refs/xor_unmask.c"
swift build -c release --package-path "$root" --product wirekit-microbench >&2
swift build -c release --package-path "$root" --product pubsub-microbench >&2
bin="$(swift build -c release --package-path "$root" --show-bin-path)"
"$bin/wirekit-microbench" | tee "$scratch/wirekit.jsonl"
"$bin/pubsub-microbench"
"$scratch/xor_unmask" 64 15 | tee "$scratch/xor.json"
python3 - "$scratch/wirekit.jsonl" "$scratch/xor.json" <<'PY'
import json, sys
ours = {}
for line in open(sys.argv[1]):
    row = json.loads(line)
    if "gb_per_s" in row:
        ours[row["benchmark"]] = row["gb_per_s"]
ref = json.load(open(sys.argv[2]))
word = ref["word_GB_per_s"]
for name in ("unmask_64MiB_in_place_median", "decode_1MiB_binary_client", "decode_1MiB_binary_server_masked"):
    print(f"{name}: {ours[name]:.2f} GB/s = {ours[name] / word:.0%} of word-wise XOR ({word:.2f} GB/s, 64 MiB)")
PY
