#!/usr/bin/env bash
# Type-checks the Apple view of every target on Linux, in Swift 6 mode, against stand-ins of the
# Apple modules it imports (Scripts/apple-standins: Darwin, Network, Security with the
# CoreFoundation names it re-exports, and os), then refuses language features whose runtime support
# Apple ships after the package's deployment targets (Scripts/apple-runtime-check.py). It catches
# our own type, nullability, concurrency and availability errors in code no Linux build compiles;
# it cannot prove that Apple's SDK accepts the code (the CI workflow's macOS and simulator jobs do
# that).
#
# What: every target of Package.swift: libraries, the demo, benchmarks, conformance clients and
# test targets (as `swift test` on macOS would compile them, `@testable` imports included); a
# target missing from the list below fails the check.
#
# How: each module's sources are copied with `canImport(Glibc)` and `canImport(FoundationEssentials)`
# made false (neither exists on Apple platforms), so every `#if` takes the branch an Apple build
# takes; `canImport(Darwin)`, `canImport(Network)`, `canImport(Security)` and `canImport(os)` are
# true because the stand-ins are on the module search path. The Darwin stand-in declares Darwin's
# own C names, types and nullability (not Glibc's), and a stand-in `Glibc` that re-exports it takes
# the real Glibc's place, so Linux's Foundation, which re-exports Glibc, hands each file Darwin's
# names as Apple's Foundation does (the real C module is still loaded, unexported, for the code
# Foundation inlines). Then the modules are compiled in dependency order with
# `swiftc -swift-version 6 -warnings-as-errors`, each module's type-checked AST is dumped for the
# runtime-support check, and the `os(watchOS)` branches get a second type check. Foundation and
# Dispatch stay Linux's. Faithfulness, per stand-in: see the head of each file.
#
#   Scripts/apple-compile-check.sh      exits 1 on the first module that does not compile, or on
#                                       any finding of the runtime-support check
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
WORK="$ROOT/.build-apple-check"
STANDINS="$WORK/standins"
MODULES="$WORK/modules"
rm -rf "$WORK"
mkdir -p "$STANDINS" "$MODULES" "$WORK/src" "$WORK/ast"
T0=$(date +%s)

standin() { # NAME: a stand-in module from Scripts/apple-standins/NAME.swift (Swift 5 mode: it
            # plays imported C and Objective-C declarations, which carry no Swift 6 checks)
    swiftc -emit-module -parse-as-library -swift-version 5 -module-name "$1" -I "$STANDINS" \
        -emit-module-path "$STANDINS/$1.swiftmodule" "Scripts/apple-standins/$1.swift"
}
standin Darwin
standin Glibc

# The C modules as an Apple build imports them: CLinuxEvents' header declares nothing outside
# Linux, so its copy is parsed without `__linux__` (else it would bring in Glibc's epoll headers
# and, through its `export *`, all of Glibc into the file that imports it).
CINCLUDE="$WORK/cinclude"
mkdir -p "$CINCLUDE/CLinuxEvents" "$CINCLUDE/CUTF8Blocks"
cp Sources/CUTF8Blocks/include/* "$CINCLUDE/CUTF8Blocks/"
cp Sources/CLinuxEvents/include/module.modulemap "$CINCLUDE/CLinuxEvents/"
{ echo '#undef __linux__'; cat Sources/CLinuxEvents/include/CLinuxEvents.h; } >"$CINCLUDE/CLinuxEvents/CLinuxEvents.h"
standin Security
standin Network
standin os

# The check must be able to fail. Each snippet in must-fail/ is refused: a `// expect:` snippet
# by the compile against the stand-ins, with that diagnostic; a `// expect-runtime:` snippet
# compiles and is refused by Scripts/apple-runtime-check.py with that rule.
mkdir -p "$WORK/must-fail"
for snippet in Scripts/apple-standins/must-fail/*.swift; do
    expected=$(sed -n 's|^// expect: ||p' "$snippet" | head -1)
    runtime=$(sed -n 's|^// expect-runtime: ||p' "$snippet" | head -1)
    if [ -n "$runtime" ]; then
        name=$(basename "$snippet" .swift)
        mkdir -p "$WORK/must-fail/$name"
        swiftc -dump-ast -swift-version 6 -parse-as-library -I "$STANDINS" "$snippet" >"$WORK/must-fail/$name/$name.ast" 2>&1 ||
            { cat "$WORK/must-fail/$name/$name.ast" >&2; echo "apple-compile-check: $snippet does not compile" >&2; exit 1; }
        printf '%s\t%s\n' "$ROOT/$snippet" "$snippet" >"$WORK/must-fail/$name/sources.tsv"
        if output=$(python3 Scripts/apple-runtime-check.py "$WORK/must-fail/$name" "$WORK/must-fail/$name/sources.tsv" 2>&1); then
            echo "apple-compile-check: $snippet passed Scripts/apple-runtime-check.py; it no longer refuses it" >&2
            exit 1
        elif ! grep -qF "$runtime" <<<"$output"; then
            echo "apple-compile-check: $snippet was refused without \"$runtime\":" >&2
            echo "$output" >&2
            exit 1
        fi
    elif output=$(swiftc -typecheck -swift-version 6 -I "$STANDINS" "$snippet" 2>&1); then
        echo "apple-compile-check: $snippet compiled; the stand-ins no longer refuse it" >&2
        exit 1
    elif ! grep -qF "$expected" <<<"$output"; then
        echo "apple-compile-check: $snippet failed without \"$expected\":" >&2
        echo "$output" >&2
        exit 1
    fi
done
echo "apple-compile-check: the stand-ins and the runtime check refuse the $(ls Scripts/apple-standins/must-fail/*.swift | wc -l) must-fail snippets"

# The sources of a target, as an Apple build sees them (and where each copy came from, for the
# runtime-support check's messages).
apple_view() { # TARGET DIRECTORY
    local out="$WORK/src/$1"
    mkdir -p "$out"
    find "$2" -name '*.swift' -not -path '*.docc/*' | sort | while read -r file; do
        local copy="$out/$(echo "${file#"$2"/}" | tr '/' '_')"
        sed -e 's/canImport(Glibc)/canImport(Glibc_IsNotOnApplePlatforms)/g' \
            -e 's/canImport(FoundationEssentials)/canImport(FoundationEssentials_IsNotOnApplePlatforms)/g' \
            "$file" >"$copy"
        printf '%s\t%s\n' "$copy" "$file" >>"$WORK/sources.tsv"
    done
    echo "$out"
}

# Each module is compiled (a library emits its module for the ones after it) and its type-checked
# AST is dumped for Scripts/apple-runtime-check.py; an executable's or a test target's dump is its
# type check. On failure the type check runs again for readable diagnostics.
compile() { # MODULE DIRECTORY [executable | tests]
    local dir files name ast
    dir=$(apple_view "$1" "$2")
    name=$(echo "$1" | tr '-' '_')
    ast="$WORK/ast/$name.ast"
    mapfile -t files < <(find "$dir" -name '*.swift' | sort)
    local flags=(-swift-version 6 -warnings-as-errors -package-name pubsub_swift -module-name "$name"
        -I "$STANDINS" -I "$MODULES" -I "$CINCLUDE/CUTF8Blocks" -I "$CINCLUDE/CLinuxEvents")
    if [ "${3:-}" != executable ] && [ "${3:-}" != tests ]; then
        swiftc -emit-module -parse-as-library -enable-testing "${flags[@]}" -emit-module-path "$MODULES/$name.swiftmodule" "${files[@]}"
        flags+=(-parse-as-library)
    fi
    if ! swiftc -dump-ast "${flags[@]}" "${files[@]}" >"$ast" 2>&1; then
        swiftc -typecheck "${flags[@]}" "${files[@]}"
        echo "apple-compile-check: $1 failed (see above)" >&2
        return 1
    fi
    echo "apple-compile-check: $1 ($(grep -lE 'canImport\((Darwin|Network|Security|os)\)' "${files[@]}" | wc -l) file(s) with Apple branches)"
}

# CUTF8Blocks is C (the AVX2 block check on x86-64, a stand-by elsewhere): its module map is
# found with -I, and its source is checked for both Apple architectures here.
for target in arm64-apple-macos13 x86_64-apple-macos13; do
    clang -fsyntax-only -ffreestanding -Wall -Wextra -Werror -target "$target" -I Sources/CUTF8Blocks/include \
        Sources/CUTF8Blocks/UTF8Blocks.c
done
echo "apple-compile-check: CUTF8Blocks (C) for arm64 and x86_64 macOS"
# CLinuxEvents (epoll for the event loop) is empty outside Linux; its source must still compile.
for target in arm64-apple-macos13 x86_64-apple-macos13; do
    clang -fsyntax-only -ffreestanding -Wall -Wextra -Werror -target "$target" -I Sources/CLinuxEvents/include \
        Sources/CLinuxEvents/LinuxEvents.c
done
echo "apple-compile-check: CLinuxEvents (C) for arm64 and x86_64 macOS"
compile Digests Sources/Digests
compile MonotonicTime Sources/MonotonicTime
compile PeerText Sources/PeerText
compile WireKit Sources/WireKit
compile PubSubProtocol Sources/PubSubProtocol
compile PubSubClient Sources/PubSubClient
compile PubSubBroker Sources/PubSubBroker
compile demo Sources/demo
compile Simulation Sources/Simulation
compile simulate Sources/simulate executable
compile BenchSupport Benchmarks/BenchSupport
compile wirebench Benchmarks/wirebench executable
compile wirekit-deflatebench Benchmarks/wirekit-deflatebench executable
compile wirekit-microbench Benchmarks/wirekit-microbench executable
compile pubsubbench Benchmarks/pubsubbench executable
compile pubsub-microbench Benchmarks/pubsub-microbench executable
compile idlebench Benchmarks/idlebench executable
compile wirekit-autobahn-client Conformance/wirekit-autobahn-client executable
compile wirekit-autobahn-server Conformance/wirekit-autobahn-server executable
compile FuzzHarness Fuzz/Harness
compile TestSupport Tests/TestSupport
# The test targets, as `swift test` on macOS compiles them (the os.Logger bridge of the logging
# guide is one of WireKitTests' files).
compile DigestsTests Tests/DigestsTests tests
compile WireKitTests Tests/WireKitTests tests
compile PubSubProtocolTests Tests/PubSubProtocolTests tests
compile PubSubClientTests Tests/PubSubClientTests tests
compile PubSubBrokerTests Tests/PubSubBrokerTests tests
compile DemoTests Tests/DemoTests tests
compile SimulationTests Tests/SimulationTests tests
compile FuzzHarnessTests Fuzz/Tests tests
echo "apple-compile-check: every module compiled against the Apple stand-ins in $(( $(date +%s) - T0 ))s"

# The watchOS-only branches (`os(watchOS)`, false in the views above): each library with one is
# type-checked again with that condition true.
for library in Sources/*/; do
    module=$(basename "$library")
    [ -d "$WORK/src/$module" ] && grep -rqF 'os(watchOS)' "$library" --include='*.swift' || continue
    mkdir -p "$WORK/src-watchos/$module"
    for copy in "$WORK/src/$module"/*.swift; do
        sed -e 's/os(watchOS)/true/g' "$copy" >"$WORK/src-watchos/$module/$(basename "$copy")"
    done
    swiftc -typecheck -parse-as-library -swift-version 6 -warnings-as-errors -package-name pubsub_swift -module-name "$module" \
        -I "$STANDINS" -I "$MODULES" -I "$CINCLUDE/CUTF8Blocks" -I "$CINCLUDE/CLinuxEvents" "$WORK/src-watchos/$module"/*.swift
    echo "apple-compile-check: $module with os(watchOS) true"
done

# Every Swift target of Package.swift is compiled above (a new target must be added here).
for target in $(python3 -c 'import re; print(*re.findall(r"\.(?:target|executableTarget|testTarget)\(\s*name:\s*\"([^\"]+)\"", open("Package.swift").read()))'); do
    case "$target" in CUTF8Blocks | CLinuxEvents) continue ;; esac
    if ! grep -q "^compile $target " "$0"; then
        echo "apple-compile-check: the target $target of Package.swift is not compiled by $0" >&2
        exit 1
    fi
done

# Language features whose runtime support Apple ships after the deployment targets.
python3 Scripts/apple-runtime-check.py "$WORK/ast" "$WORK/sources.tsv"
