#!/usr/bin/env bash
# The DocC reference documentation, with the toolchain's own `docc` (no package dependency):
# emits the symbol graphs in a scratch path of their own (the normal `.build` is not touched),
# then converts each catalog with warnings as errors and documentation coverage, into static
# archives under .build-docs/archives/MODULE.doccarchive.
#
#   Scripts/docs.sh                  every catalog; fails on any warning or a missing abstract
#   Scripts/docs.sh WireKit          one module
#
# Also runs Scripts/check-links.py: every relative link of README.md, Docs/*.md and the
# catalogs' articles must name a file (and heading) that exists.
#
# Prints each module's abstract coverage (Types, Members, Globals) and the symbols still
# lacking an abstract, with their file and line. To browse an archive, serve it statically:
#   python3 -m http.server -d .build-docs/archives/WireKit.doccarchive   (then open /documentation/wirekit)
set -euo pipefail
cd "$(dirname "$0")/.."
T0=$(date +%s)

MODULES=("$@")
[ ${#MODULES[@]} -gt 0 ] || MODULES=(WireKit PubSubProtocol PubSubClient PubSubBroker)

SCRATCH=.build-docs
mkdir -p "$SCRATCH"
touch "$SCRATCH/dump.started"
# Its exit status is not the verdict: besides the libraries it tries the test modules, which
# dump-symbol-graph cannot load. The graphs written for the modules documented here are.
swift package --scratch-path "$SCRATCH" dump-symbol-graph --skip-synthesized-members >"$SCRATCH/dump.log" 2>&1 || true
GRAPHS=$(sed -n 's/^Files written to //p' "$SCRATCH/dump.log" | tail -1)
for MODULE in "${MODULES[@]}"; do
    if [ -z "$GRAPHS" ] || [ ! "$GRAPHS/$MODULE.symbols.json" -nt "$SCRATCH/dump.started" ]; then
        cat "$SCRATCH/dump.log" >&2
        echo "docs.sh: dump-symbol-graph wrote no symbol graph for $MODULE" >&2
        exit 1
    fi
done

FAILED=()
# The guides' relative links (README, Docs/, the catalogs' articles) must resolve on their own too.
python3 Scripts/check-links.py || FAILED+=(links)
for MODULE in "${MODULES[@]}"; do
    CATALOG="Sources/$MODULE/$MODULE.docc"
    [ -d "$CATALOG" ] || { echo "docs.sh: no catalog $CATALOG" >&2; FAILED+=("$MODULE"); continue; }
    # Only this module's graphs (its own and its extensions of other modules' types).
    INPUT="$SCRATCH/graphs/$MODULE"
    OUTPUT="$SCRATCH/archives/$MODULE.doccarchive"
    rm -rf "$INPUT" "$OUTPUT"
    mkdir -p "$INPUT" "$SCRATCH/archives"
    cp "$GRAPHS/$MODULE.symbols.json" "$INPUT/"
    for EXTENSION in "$GRAPHS/$MODULE"@*.symbols.json; do
        [ -e "$EXTENSION" ] && cp "$EXTENSION" "$INPUT/"
    done
    echo "==> $MODULE"
    LOG="$SCRATCH/$MODULE.docc.log"
    RC=0
    docc convert "$CATALOG" \
        --additional-symbol-graph-dir "$INPUT" \
        --fallback-display-name "$MODULE" --fallback-bundle-identifier "$MODULE" \
        --output-path "$OUTPUT" \
        --transform-for-static-hosting \
        --warnings-as-errors \
        --experimental-documentation-coverage --coverage-summary-level none \
        >"$LOG" 2>&1 || RC=$?
    # docc's diagnostics (each with its source excerpt); nothing else of its chatter.
    if grep -qE '(^|[^a-z])(warning|error):' "$LOG" || [ "$RC" -ne 0 ]; then
        cat "$LOG"
        echo "docs.sh: $MODULE: docc reported problems (exit $RC)" >&2
        FAILED+=("$MODULE")
        [ -f "$OUTPUT/documentation-coverage.json" ] || continue
    fi
    python3 Scripts/docs-coverage.py "$OUTPUT" --symbol-graphs "$INPUT" || FAILED+=("$MODULE")
done

echo "docs.sh: ${#MODULES[@]} catalog(s) in $(( $(date +%s) - T0 ))s"
if [ ${#FAILED[@]} -gt 0 ]; then
    echo "docs.sh: failed: ${FAILED[*]}" >&2
    exit 1
fi
