/* malloc_count.c - an LD_PRELOAD counter of heap allocations (malloc, calloc, realloc,
 * posix_memalign, aligned_alloc), printed to stderr at exit as "MALLOC_COUNT n". Used by
 * sc-targets.py to count allocations per invoke: the difference between two run lengths divided
 * by the difference in invokes, so start-up cost cancels out.
 *   cc -O2 -shared -fPIC -o malloc_count.so malloc_count.c -ldl
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static atomic_ulong count;
static void *(*real_malloc)(size_t);
static void *(*real_calloc)(size_t, size_t);
static void *(*real_realloc)(void *, size_t);
static int (*real_memalign)(void **, size_t, size_t);
static void *(*real_aligned)(size_t, size_t);

/* dlsym itself may call calloc before real_calloc is known: serve it from a static buffer. */
static char bootstrap[4096];
static size_t bootstrap_used;

static void *boot_alloc(size_t size) {
    size = (size + 15) & ~(size_t)15;
    if (bootstrap_used + size > sizeof bootstrap) return NULL;
    void *p = bootstrap + bootstrap_used;
    bootstrap_used += size;
    return p;
}

void *malloc(size_t size) {
    if (!real_malloc) real_malloc = dlsym(RTLD_NEXT, "malloc");
    atomic_fetch_add_explicit(&count, 1, memory_order_relaxed);
    return real_malloc(size);
}

void *calloc(size_t n, size_t size) {
    if (!real_calloc) {
        static int resolving;
        if (resolving) return boot_alloc(n * size);
        resolving = 1;
        real_calloc = dlsym(RTLD_NEXT, "calloc");
        resolving = 0;
    }
    atomic_fetch_add_explicit(&count, 1, memory_order_relaxed);
    return real_calloc(n, size);
}

void *realloc(void *p, size_t size) {
    if (!real_realloc) real_realloc = dlsym(RTLD_NEXT, "realloc");
    atomic_fetch_add_explicit(&count, 1, memory_order_relaxed);
    return real_realloc(p, size);
}

void free(void *p) {
    static void (*real_free)(void *);
    if ((char *)p >= bootstrap && (char *)p < bootstrap + sizeof bootstrap) return;
    if (!real_free) real_free = dlsym(RTLD_NEXT, "free");
    real_free(p);
}

int posix_memalign(void **out, size_t alignment, size_t size) {
    if (!real_memalign) real_memalign = dlsym(RTLD_NEXT, "posix_memalign");
    atomic_fetch_add_explicit(&count, 1, memory_order_relaxed);
    return real_memalign(out, alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
    if (!real_aligned) real_aligned = dlsym(RTLD_NEXT, "aligned_alloc");
    atomic_fetch_add_explicit(&count, 1, memory_order_relaxed);
    return real_aligned(alignment, size);
}

__attribute__((destructor)) static void report(void) {
    char line[64];
    int n = snprintf(line, sizeof line, "MALLOC_COUNT %lu\n", atomic_load(&count));
    if (n > 0) (void)!write(2, line, (size_t)n);
}
