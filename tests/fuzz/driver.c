/* driver.c — a main() for the fuzz targets when libFuzzer is not linked (compiled out with -DAP_LIBFUZZER).
 *
 * It makes every fuzz target a cheap regression test under `make test`: each file of
 * tests/fuzz/<name>/corpus/ (found from argv[0]'s basename "fuzz-<name>", relative to the working
 * directory) goes through the target, then N deterministic mutations of it (bit flips, truncations, byte
 * insertions and deletions, a few syntax-significant tokens; fixed seed, so a failure reproduces). Each input
 * is copied into a buffer of exactly its size so AddressSanitizer sees any over-read. A crash ends the
 * process, so reaching the summary means every input passed.
 *
 * Usage: fuzz-<name> [FILE-OR-DIR...]  (arguments replace the default corpus folder)
 * ARCPATH_FUZZ_MUTATIONS=N overrides the number of mutations per corpus file (default 200).
 */
#ifndef AP_LIBFUZZER
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tests/fuzz/fuzz.h"

#define AP_FUZZ_DEFAULT_MUTATIONS 200
#define AP_FUZZ_MAX_FILE (1 << 20)

static uint64_t rng_state = 0x9E3779B97F4A7C15ull; /* fixed: runs are reproducible */

static uint64_t rng(void)
{
    /* xorshift64*: good enough to pick positions, and identical on every platform */
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545F4914F6CDD1Dull;
}

static size_t below(size_t n)
{
    return n == 0 ? 0 : (size_t)(rng() % n);
}

static unsigned long long n_inputs;

/* Run the target on a private, exactly-sized copy. */
static void run(const uint8_t *data, size_t size)
{
    uint8_t *copy = malloc(size ? size : 1);
    if (copy == NULL) {
        perror("fuzz driver");
        exit(2);
    }
    if (size)
        memcpy(copy, data, size);
    LLVMFuzzerTestOneInput(copy, size);
    free(copy);
    n_inputs++;
}

static const char *const tokens[] = {"{", "}", "[", "]", "\"", ",", ":", "\\", "\\u0000", "\\ud800", "null",
                                     "1e999", "-0", "0.", "99999999999999999999", "\n", "\r\n", "\xff",
                                     "\xc3", "@", "map\n", "height 0\n", "width 65537\n", "type octile\n"};

/* One mutation of src (n bytes) into dst (capacity n + 64); returns the new size. */
static size_t mutate(const uint8_t *src, size_t n, uint8_t *dst)
{
    memcpy(dst, src, n);
    size_t m = n;
    int rounds = 1 + (int)below(3);
    for (int r = 0; r < rounds; r++) {
        switch (below(6)) {
        case 0: /* flip a bit */
            if (m > 0) {
                size_t i = below(m);
                dst[i] ^= (uint8_t)(1u << below(8));
            }
            break;
        case 1: /* truncate */
            m = below(m + 1);
            break;
        case 2: /* insert a random byte */
            if (m < n + 60) {
                size_t i = below(m + 1);
                memmove(dst + i + 1, dst + i, m - i);
                dst[i] = (uint8_t)rng();
                m++;
            }
            break;
        case 3: /* delete a byte */
            if (m > 0) {
                size_t i = below(m);
                memmove(dst + i, dst + i + 1, m - i - 1);
                m--;
            }
            break;
        case 4: { /* insert a token that means something to one of the parsers */
            const char *t = tokens[below(sizeof tokens / sizeof tokens[0])];
            size_t tl = strlen(t);
            if (m + tl <= n + 60) {
                size_t i = below(m + 1);
                memmove(dst + i + tl, dst + i, m - i);
                memcpy(dst + i, t, tl);
                m += tl;
            }
            break;
        }
        default: /* overwrite a byte with a random one */
            if (m > 0)
                dst[below(m)] = (uint8_t)rng();
            break;
        }
    }
    return m;
}

static int run_file(const char *path, int mutations)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        fprintf(stderr, "%s: %s\n", path, strerror(errno));
        return -1;
    }
    uint8_t *buf = malloc(AP_FUZZ_MAX_FILE);
    uint8_t *mut = malloc(AP_FUZZ_MAX_FILE + 64);
    if (buf == NULL || mut == NULL) {
        fclose(f);
        free(buf);
        free(mut);
        return -1;
    }
    size_t n = fread(buf, 1, AP_FUZZ_MAX_FILE, f);
    fclose(f);
    run(buf, n);
    for (int i = 0; i < mutations; i++)
        run(mut, mutate(buf, n, mut));
    free(buf);
    free(mut);
    return 0;
}

static int only_files(const struct dirent *e)
{
    return e->d_name[0] != '.';
}

static int run_path(const char *path, int mutations)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        fprintf(stderr, "%s: %s\n", path, strerror(errno));
        return -1;
    }
    if (!S_ISDIR(st.st_mode))
        return run_file(path, mutations);
    struct dirent **list;
    int n = scandir(path, &list, only_files, alphasort); /* sorted: the mutation sequence is reproducible */
    if (n < 0) {
        fprintf(stderr, "%s: %s\n", path, strerror(errno));
        return -1;
    }
    int rc = n == 0 ? -1 : 0;
    if (n == 0)
        fprintf(stderr, "%s: empty corpus\n", path);
    for (int i = 0; i < n; i++) {
        char file[4096];
        snprintf(file, sizeof file, "%s/%s", path, list[i]->d_name);
        if (rc == 0 && run_file(file, mutations) != 0)
            rc = -1;
        free(list[i]);
    }
    free(list);
    return rc;
}

int main(int argc, char **argv)
{
    const char *base = strrchr(argv[0], '/');
    base = base ? base + 1 : argv[0];
    if (strncmp(base, "fuzz-", 5) != 0 || base[5] == '\0') {
        fprintf(stderr, "%s: the program must be named fuzz-<name> to find tests/fuzz/<name>/corpus\n", base);
        return 2;
    }
    int mutations = AP_FUZZ_DEFAULT_MUTATIONS;
    const char *env = getenv("ARCPATH_FUZZ_MUTATIONS");
    if (env != NULL) {
        char *end;
        long v = strtol(env, &end, 10);
        if (*env == '\0' || *end != '\0' || v < 0 || v > 1000000) {
            fprintf(stderr, "ARCPATH_FUZZ_MUTATIONS: must be an integer between 0 and 1000000\n");
            return 2;
        }
        mutations = (int)v;
    }
    int failed = 0;
    if (argc > 1) {
        for (int i = 1; i < argc; i++)
            failed |= run_path(argv[i], mutations) != 0;
    } else {
        char dir[512];
        snprintf(dir, sizeof dir, "tests/fuzz/%s/corpus", base + 5);
        failed |= run_path(dir, mutations) != 0;
    }
    printf("%s: %llu inputs, 0 crashes%s\n", base, n_inputs, failed ? " (but the corpus could not be read)" : "");
    printf("%llu passed, %d failed\n", n_inputs, failed);
    return failed ? 1 : 0;
}
#endif
