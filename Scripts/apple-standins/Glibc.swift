// Stand-in for Linux's Glibc module, for Scripts/apple-compile-check.sh only. Linux's Foundation
// re-exports Glibc, so every file that imports Foundation sees the C library through it; Apple's
// Foundation re-exports Darwin instead. Found before the real Glibc on the module search path, this
// module makes Linux's Foundation (and anything else that imports Glibc) hand out the Darwin
// stand-in's names and none of Glibc's.
//
// `SwiftGlibc` (the C library's Clang module) is imported without being re-exported: Foundation's
// inlinable code calls into it (`memcmp` in `Data ==`), so the compiler must be able to load it,
// but no source file of ours sees its names.
@_exported import Darwin
import SwiftGlibc
