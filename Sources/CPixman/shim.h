#pragma once
#include <pixman.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/// Copies `rows` rows of `width` 32-bit pixels from `source` to `target` (strides in bytes),
/// as pixman's SRC operator copies an a8r8g8b8 image into one, with the same result. On x86-64
/// the target is written with non-temporal stores: a frame's pixels go to a shm buffer that the
/// compositor reads, not this thread, and ordinary stores first read every target line into the
/// cache (a pan's frame of tiles took twice as long that way). Elsewhere: memcpy, row by row.
static inline void CPixman_copy_pixels(uint32_t *target, ptrdiff_t target_stride, const uint32_t *source,
                                       ptrdiff_t source_stride, int width, int rows) {
    if (width <= 0 || rows <= 0) return;
    for (int row = 0; row < rows; row++) {
        uint32_t *out = (uint32_t *)((uint8_t *)target + row * target_stride);
        const uint32_t *in = (const uint32_t *)((const uint8_t *)source + row * source_stride);
#if defined(__SSE2__)
        int x = 0;
        // Up to the target's first 16-byte boundary, one pixel at a time (rows are 4-byte aligned).
        while (x < width && ((uintptr_t)(out + x) & 15) != 0) {
            out[x] = in[x];
            x++;
        }
        for (; x + 4 <= width; x += 4) {
            _mm_stream_si128((__m128i *)(out + x), _mm_loadu_si128((const __m128i *)(in + x)));
        }
        for (; x < width; x++) out[x] = in[x];
#else
        memcpy(out, in, (size_t)width * 4);
#endif
    }
#if defined(__SSE2__)
    // The streamed stores are ordered before whatever follows (a blend over them, the commit).
    _mm_sfence();
#endif
}
