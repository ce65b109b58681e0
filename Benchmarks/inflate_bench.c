// Inflaters side by side on one gzip file, in memory (no disk, no archive parsing): zlib's
// streaming inflate (what libarchive's gzip filter uses), ISA-L's streaming isal_inflate (what
// Sources/CArchiveShim/CArchiveInflater.c uses) and libdeflate's one-shot gzip decompression,
// whose output buffer is allocated and touched before the clock starts (the fairest case for it;
// a scan could not give it one buffer for a multi-gigabyte member). Prints each round's seconds.
//
//     apt-get install zlib1g-dev libisal-dev libdeflate-dev
//     cc -O2 Benchmarks/inflate_bench.c -o /tmp/inflate_bench -lz -lisal -ldeflate
//     /tmp/inflate_bench FILE.gz [ROUNDS]
#include <isa-l/igzip_lib.h>
#include <libdeflate.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zlib.h>

static double now(void) {
    struct timespec clock;
    clock_gettime(CLOCK_MONOTONIC, &clock);
    return (double)clock.tv_sec + (double)clock.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
    if (argc < 2) { fprintf(stderr, "usage: inflate_bench FILE.gz [ROUNDS]\n"); return 64; }
    int rounds = argc > 2 ? atoi(argv[2]) : 5;
    FILE *file = fopen(argv[1], "rb");
    if (file == NULL) { perror(argv[1]); return 2; }
    fseek(file, 0, SEEK_END);
    long size = ftell(file);
    fseek(file, 0, SEEK_SET);
    unsigned char *input = malloc((size_t)size);
    if (input == NULL || fread(input, 1, (size_t)size, file) != (size_t)size) { fprintf(stderr, "cannot read\n"); return 2; }
    fclose(file);
    const size_t chunk = 1 << 20;
    unsigned char *out = malloc(chunk);
    unsigned char *whole = NULL;
    size_t wholeSize = 0;
    for (int round = 0; round < rounds; round += 1) {
        double start = now();
        z_stream zlib;
        memset(&zlib, 0, sizeof zlib);
        inflateInit2(&zlib, 15 + 32);
        zlib.next_in = input;
        zlib.avail_in = (uInt)size;
        size_t zlibTotal = 0;
        for (;;) {
            zlib.next_out = out;
            zlib.avail_out = (uInt)chunk;
            int status = inflate(&zlib, Z_NO_FLUSH);
            zlibTotal += chunk - zlib.avail_out;
            if (status == Z_STREAM_END) break;
            if (status != Z_OK) { fprintf(stderr, "zlib: %d\n", status); return 1; }
        }
        inflateEnd(&zlib);
        double zlibSeconds = now() - start;

        start = now();
        struct inflate_state isal;
        isal_inflate_init(&isal);
        isal.crc_flag = ISAL_GZIP;
        isal.next_in = input;
        isal.avail_in = (uint32_t)size;
        size_t isalTotal = 0;
        for (;;) {
            isal.next_out = out;
            isal.avail_out = (uint32_t)chunk;
            int status = isal_inflate(&isal);
            isalTotal += chunk - isal.avail_out;
            if (status != ISAL_DECOMP_OK) { fprintf(stderr, "isal: %d\n", status); return 1; }
            if (isal.block_state == ISAL_BLOCK_FINISH) break;
        }
        double isalSeconds = now() - start;

        if (whole == NULL) {
            wholeSize = zlibTotal + 16;
            whole = malloc(wholeSize);
            if (whole == NULL) { fprintf(stderr, "no memory for libdeflate's buffer\n"); return 1; }
            memset(whole, 0, wholeSize);
        }
        start = now();
        struct libdeflate_decompressor *decompressor = libdeflate_alloc_decompressor();
        size_t deflateTotal = 0;
        int status = libdeflate_gzip_decompress(decompressor, input, (size_t)size, whole, wholeSize, &deflateTotal);
        libdeflate_free_decompressor(decompressor);
        double deflateSeconds = now() - start;
        if (status != LIBDEFLATE_SUCCESS || deflateTotal != zlibTotal || isalTotal != zlibTotal) { fprintf(stderr, "sizes differ\n"); return 1; }
        printf("zlib %.3f s  isa-l %.3f s  libdeflate %.3f s  (%zu bytes out)\n", zlibSeconds, isalSeconds, deflateSeconds, zlibTotal);
    }
    return 0;
}
