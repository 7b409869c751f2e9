// UTF-8 validation of 32-byte blocks with AVX2, for WireKit's UTF8Validator: the vector width
// and byte shuffles that Swift's baseline x86-64 target (SSE2) does not reach. Chosen at run
// time; on other CPUs and architectures the functions report that they cannot help and the
// Swift validator does all the work.
#ifndef CUTF8BLOCKS_H
#define CUTF8BLOCKS_H

#include <stddef.h>
#include <stdint.h>

/// 1 when this CPU runs `cutf8_valid_blocks`, 0 otherwise (then it returns `start`).
int cutf8_blocks_available(void);

/// Where the bytes from `start` still need checking: the 32-byte blocks from `start` in which
/// every byte is consistent with the three bytes before it (Unicode Table 3-7) are passed over,
/// up to the first block with an inconsistent byte or the last bytes that do not fill a block;
/// the result is three bytes before that point (a byte is judged here only with the byte after
/// it), or `start` when no block passed. `start` must be at least 3 (the three bytes before it
/// are read) and on a code point boundary.
size_t cutf8_valid_blocks(const uint8_t *base, size_t start, size_t count);

#endif
