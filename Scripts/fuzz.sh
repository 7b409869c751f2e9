#!/usr/bin/env bash
# Coverage-guided fuzzing of WireKit's and PubSubProtocol's parsers with the toolchain's libFuzzer.
#
#   Scripts/fuzz.sh --seconds N [TARGET...]     (default: every target, one after the other)
#   Scripts/fuzz.sh --build-only
#   Scripts/fuzz.sh --list
#
# Builds the FuzzHarness library and its dependencies with -sanitize=fuzzer,address (release,
# own scratch path .build-fuzz), links one libFuzzer binary per target from Fuzz/Entry/TARGET.swift
# (.build-fuzz/fuzzers/TARGET), then runs each target for N seconds on a working corpus
# (.build-fuzz/corpus/TARGET, seeded from the committed Fuzz/Corpus/TARGET) with the dictionary
# Fuzz/Dictionaries/TARGET.dict when there is one. Prints one line per target:
#
#   TARGET: N execs, cov C, ft F, findings K
#
# A finding (a crash, a sanitizer report, a failed check of the harness, a timeout or an
# out-of-memory) stops that target; its input is left in .build-fuzz/findings/TARGET/ (libFuzzer's
# crash-*/timeout-*/oom-* files) and the log in .build-fuzz/logs/TARGET.log. Reproduce with
# `.build-fuzz/fuzzers/TARGET FILE`; once fixed, copy the input into Fuzz/Corpus/TARGET/ so the
# corpus replay test (Fuzz/Tests) keeps it.
# Exit status: 0 when no target had a finding, 1 otherwise, 2 on a build or usage error.
set -uo pipefail
cd "$(dirname "$0")/.."
SCRATCH=.build-fuzz
ALL=(frames http-head handshake utf8 json packet jwt url msgpack)
SECONDS_EACH=""; BUILD_ONLY=""; TARGETS=()
die() { echo "fuzz.sh: $*" >&2; exit 2; }
while [ $# -gt 0 ]; do
    case "$1" in
        --seconds) SECONDS_EACH=$2; shift 2 ;;
        --build-only) BUILD_ONLY=1; shift ;;
        --list) printf '%s\n' "${ALL[@]}"; exit 0 ;;
        -h|--help) sed -n '2,/^set -uo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; exit 0 ;;
        -*) die "unknown option $1" ;;
        *) TARGETS+=("$1"); shift ;;
    esac
done
[ ${#TARGETS[@]} -gt 0 ] || TARGETS=("${ALL[@]}")
for t in "${TARGETS[@]}"; do [ -f "Fuzz/Entry/$t.swift" ] || die "unknown target $t (--list)"; done
[ -n "$BUILD_ONLY" ] || [[ "$SECONDS_EACH" =~ ^[0-9]+$ ]] || die "give --seconds N"

# ------------------------------------------------------------------ build
# The package's C targets (CUTF8Blocks, CLinuxEvents) are instrumented too: coverage for the fuzzer, ASan for its
# vector loads.
FLAGS=(-c release --scratch-path "$SCRATCH" -Xswiftc -sanitize=fuzzer,address -Xcc -fsanitize=fuzzer-no-link,address)
echo "fuzz.sh: building FuzzHarness with -sanitize=fuzzer,address" >&2
swift build "${FLAGS[@]}" --target FuzzHarness >&2 || die "build failed"
BIN=$(swift build "${FLAGS[@]}" --show-bin-path) || die "no bin path"
# FuzzHarness and every target it depends on, from the manifest (a new module needs no edit here).
MODULES=$(swift package describe --type json | python3 -c '
import json, sys
targets = {t["name"]: t for t in json.load(sys.stdin)["targets"]}
seen, todo = [], ["FuzzHarness"]
while todo:
    name = todo.pop()
    if name in seen or name not in targets:
        continue
    seen.append(name)
    todo.extend(targets[name].get("target_dependencies", []))
print(" ".join(seen))') || die "cannot read the manifest"
OBJECTS=()
for module in $MODULES; do
    OBJECTS+=("$BIN/$module.build/"*.o)
done
mkdir -p "$SCRATCH/fuzzers"
for t in "${TARGETS[@]}"; do
    out="$SCRATCH/fuzzers/$t"
    if [ ! -x "$out" ] || [ -n "$(find "${OBJECTS[@]}" "Fuzz/Entry/$t.swift" -newer "$out" -print -quit)" ]; then
        echo "fuzz.sh: linking $out" >&2
        swiftc -O -sanitize=fuzzer,address -use-ld=lld -parse-as-library -module-name "fuzz_${t//-/_}" \
            -I "$BIN/Modules" -I Sources/CUTF8Blocks/include -I Sources/CLinuxEvents/include "Fuzz/Entry/$t.swift" "${OBJECTS[@]}" -o "$out" >&2 || die "linking $t failed"
    fi
done
[ -z "$BUILD_ONLY" ] || exit 0

# ------------------------------------------------------------------ run
max_len() {
    case "$1" in
        http-head|handshake) echo 20000 ;;   # past the 16 KiB head limit
        frames) echo 8192 ;;
        *) echo 4096 ;;
    esac
}
RC=0
for t in "${TARGETS[@]}"; do
    corpus="$SCRATCH/corpus/$t"; findings="$SCRATCH/findings/$t"; log="$SCRATCH/logs/$t.log"
    mkdir -p "$corpus" "$findings" "$(dirname "$log")"
    before=$(find "$findings" -type f | wc -l)
    args=(-max_total_time="$SECONDS_EACH" -timeout=10 -rss_limit_mb=2048 -max_len="$(max_len "$t")"
          -print_final_stats=1 -artifact_prefix="$findings/")
    [ ! -f "Fuzz/Dictionaries/$t.dict" ] || args+=(-dict="Fuzz/Dictionaries/$t.dict")
    "$SCRATCH/fuzzers/$t" "${args[@]}" "$corpus" "Fuzz/Corpus/$t" >"$log" 2>&1
    status=$?
    found=$(( $(find "$findings" -type f | wc -l) - before ))
    [ $status -eq 0 ] || [ $found -gt 0 ] || found=1   # died without an artifact: still a finding
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    last=$(grep -E '^#[0-9]+' "$log" | grep ' cov: ' | tail -1)
    cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")
    ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
    echo "$t: ${execs:-?} execs, cov ${cov:-?}, ft ${ft:-?}, findings $found"
    if [ $found -gt 0 ]; then
        RC=1
        grep -m 3 -E 'fuzz finding|ERROR: AddressSanitizer|Fatal error|deadly signal|==ERROR' "$log" | sed 's/^/    /' >&2
        echo "    input: $(ls -t "$findings" | head -1 | sed "s|^|$findings/|"), log: $log" >&2
    fi
done
exit $RC
