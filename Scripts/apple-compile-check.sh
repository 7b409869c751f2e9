#!/usr/bin/env bash
# Type-checks the Apple-only branches of the sources on Linux, in Swift 6 mode, against stand-ins
# of the Apple modules they import (Scripts/apple-standins: Network, Security with the
# CoreFoundation names it re-exports, os, and Darwin). It catches our own type and concurrency
# errors in code no Linux build compiles; it cannot prove that Apple's SDK accepts the code
# (the CI workflow's macOS and iOS jobs do that).
#
# What: every target of Package.swift: libraries, the demo, benchmarks, conformance clients and
# test targets (as `swift test` on macOS would compile them, `@testable` imports included).
#
# How: each module's sources are copied with `canImport(Glibc)` and
# `canImport(FoundationEssentials)` made false (neither exists on Apple platforms), so every
# `#if` takes the branch an Apple build takes; `canImport(Darwin)`, `canImport(Network)`,
# `canImport(Security)` and `canImport(os)` are true because the stand-ins are on the module search
# path. Then the
# modules are compiled in dependency order with `swiftc -swift-version 6 -warnings-as-errors`.
# Foundation and Dispatch stay Linux's. Faithfulness, per stand-in: see the head of each file.
#
#   Scripts/apple-compile-check.sh      exits 1 on the first module that does not compile
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
WORK="$ROOT/.build-apple-check"
STANDINS="$WORK/standins"
MODULES="$WORK/modules"
rm -rf "$WORK"
mkdir -p "$STANDINS" "$MODULES" "$WORK/src"
T0=$(date +%s)

standin() { # NAME: a stand-in module from Scripts/apple-standins/NAME.swift (Swift 5 mode: it
            # plays imported C and Objective-C declarations, which carry no Swift 6 checks)
    swiftc -emit-module -parse-as-library -swift-version 5 -module-name "$1" -I "$STANDINS" \
        -emit-module-path "$STANDINS/$1.swiftmodule" "Scripts/apple-standins/$1.swift"
}
standin Darwin
standin Security
standin Network
standin os

# The check must be able to fail: each snippet in must-fail/ is refused, with its diagnostic.
for snippet in Scripts/apple-standins/must-fail/*.swift; do
    expected=$(sed -n 's|^// expect: ||p' "$snippet" | head -1)
    if output=$(swiftc -typecheck -swift-version 6 -I "$STANDINS" "$snippet" 2>&1); then
        echo "apple-compile-check: $snippet compiled; the stand-ins no longer refuse it" >&2
        exit 1
    elif ! grep -qF "$expected" <<<"$output"; then
        echo "apple-compile-check: $snippet failed without \"$expected\":" >&2
        echo "$output" >&2
        exit 1
    fi
done
echo "apple-compile-check: the stand-ins refuse the $(ls Scripts/apple-standins/must-fail/*.swift | wc -l) must-fail snippets"

# The sources of a target, as an Apple build sees them.
apple_view() { # TARGET DIRECTORY
    local out="$WORK/src/$1"
    mkdir -p "$out"
    find "$2" -name '*.swift' -not -path '*.docc/*' | sort | while read -r file; do
        local copy="$out/$(echo "${file#"$2"/}" | tr '/' '_')"
        sed -e 's/canImport(Glibc)/canImport(Glibc_IsNotOnApplePlatforms)/g' \
            -e 's/canImport(FoundationEssentials)/canImport(FoundationEssentials_IsNotOnApplePlatforms)/g' \
            "$file" >"$copy"
    done
    echo "$out"
}

compile() { # MODULE DIRECTORY [executable | tests]
    local dir files
    dir=$(apple_view "$1" "$2")
    mapfile -t files < <(find "$dir" -name '*.swift' | sort)
    if [ "${3:-}" = executable ] || [ "${3:-}" = tests ]; then
        swiftc -typecheck -swift-version 6 -warnings-as-errors -package-name pubsub_swift -module-name "$1" \
            -I "$STANDINS" -I "$MODULES" -I Sources/CUTF8Blocks/include -I Sources/CLinuxEvents/include "${files[@]}"
    else
        swiftc -emit-module -parse-as-library -enable-testing -swift-version 6 -warnings-as-errors -package-name pubsub_swift \
            -module-name "$1" -I "$STANDINS" -I "$MODULES" -I Sources/CUTF8Blocks/include -I Sources/CLinuxEvents/include -emit-module-path "$MODULES/$1.swiftmodule" "${files[@]}"
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
compile BenchSupport Benchmarks/BenchSupport
compile wirebench Benchmarks/wirebench executable
compile wirekit-deflatebench Benchmarks/wirekit-deflatebench executable
compile wirekit-microbench Benchmarks/wirekit-microbench executable
compile pubsubbench Benchmarks/pubsubbench executable
compile pubsub-microbench Benchmarks/pubsub-microbench executable
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
compile FuzzHarnessTests Fuzz/Tests tests
echo "apple-compile-check: every module compiled against the Apple stand-ins in $(( $(date +%s) - T0 ))s"
