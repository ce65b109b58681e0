#include "CArchiveInflater.h"

#include <isa-l/igzip_lib.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/// Four buffers of 1 MiB: the thread fills one while libarchive reads another, and at most
/// 4 MiB of inflated bytes wait (the scan's memory bound counts on a fixed amount here).
enum { SLOT_COUNT = 4, SLOT_SIZE = 1 << 20 };

struct carchive_inflater {
    carchive_read_fn read;
    void *context;
    size_t block_size;
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t changed;
    unsigned char *slots[SLOT_COUNT];
    size_t lengths[SLOT_COUNT];
    int64_t compressed_after[SLOT_COUNT];
    /// Counts, never wrapped in practice (2^64 MiB): slots filled, handed out, given back.
    uint64_t filled, taken, released;
    /// 0 while inflating, 1 at a clean end, -1 after an error.
    int finished;
    const char *error;
    int stopping;
    int64_t compressed_delivered;
};

/// The source's next bytes: no system call here, Swift reads (EINTR and faults included).
static long read_source(struct carchive_inflater *inflater, void *buffer, size_t count) {
    return inflater->read(inflater->context, buffer, count);
}

int carchive_starts_gzip_member(const void *start, size_t count) {
    const unsigned char *bytes = start;
    return count >= 4 && bytes[0] == 0x1f && bytes[1] == 0x8b && bytes[2] == 8 && (bytes[3] & 0xe0) == 0;
}

static const char *describe(int status) {
    switch (status) {
    case ISAL_INCORRECT_CHECKSUM: return "gzip: a member's CRC-32 or length does not match its trailer (the archive is damaged)";
    case ISAL_INVALID_WRAPPER: return "gzip: invalid member header";
    case ISAL_UNSUPPORTED_METHOD: return "gzip: a member is not deflate-compressed";
    default: return "gzip: invalid compressed data";
    }
}

/// Publishes the slot being filled (when it holds anything) and the end, under the lock.
static void publish(struct carchive_inflater *inflater, size_t length, int64_t compressed, int finished, const char *error) {
    pthread_mutex_lock(&inflater->lock);
    if (length > 0) {
        unsigned slot = (unsigned)(inflater->filled % SLOT_COUNT);
        inflater->lengths[slot] = length;
        inflater->compressed_after[slot] = compressed;
        inflater->filled += 1;
    }
    if (finished != 0) {
        inflater->finished = finished;
        inflater->error = error;
    }
    pthread_cond_broadcast(&inflater->changed);
    pthread_mutex_unlock(&inflater->lock);
}

static void *inflate_all(void *context) {
    struct carchive_inflater *inflater = context;
    unsigned char *input = malloc(inflater->block_size);
    struct inflate_state *state = malloc(sizeof(struct inflate_state));
    if (input == NULL || state == NULL) {
        free(input);
        free(state);
        publish(inflater, 0, 0, -1, "gzip: out of memory");
        return NULL;
    }
    isal_inflate_init(state);
    state->crc_flag = ISAL_GZIP;
    state->avail_in = 0;
    int input_ended = 0;
    int64_t consumed = 0;
    for (;;) {
        pthread_mutex_lock(&inflater->lock);
        while (inflater->filled - inflater->released >= SLOT_COUNT && !inflater->stopping) {
            pthread_cond_wait(&inflater->changed, &inflater->lock);
        }
        int stopping = inflater->stopping;
        unsigned char *out = inflater->slots[inflater->filled % SLOT_COUNT];
        pthread_mutex_unlock(&inflater->lock);
        if (stopping) break;

        state->next_out = out;
        state->avail_out = SLOT_SIZE;
        int finished = 0;
        const char *error = NULL;
        while (state->avail_out > 0) {
            if (state->avail_in == 0 && !input_ended) {
                long got = read_source(inflater, input, inflater->block_size);
                if (got < 0) { finished = -1; error = "gzip: cannot read the file"; break; }
                if (got == 0) input_ended = 1;
                state->next_in = input;
                state->avail_in = (uint32_t)got;
            }
            uint32_t before = state->avail_in;
            uint32_t room = state->avail_out;
            int status = isal_inflate(state);
            consumed += (int64_t)(before - state->avail_in);
            // Anything but OK is an error here (a positive status asks for a dictionary, which
            // gzip never has).
            if (status != ISAL_DECOMP_OK) { finished = -1; error = describe(status); break; }
            // Input left, room left, the member open, and nothing taken or given: stuck. Never
            // seen from ISA-L, but a loop on hostile bytes must end.
            if (state->block_state != ISAL_BLOCK_FINISH && state->avail_in == before && before > 0
                && state->avail_out == room && room > 0) {
                finished = -1;
                error = "gzip: invalid compressed data";
                break;
            }
            if (state->block_state == ISAL_BLOCK_FINISH) {
                // Another member may follow; keep what is left of the input at its start.
                if (state->avail_in < 4 && !input_ended) {
                    memmove(input, state->next_in, state->avail_in);
                    long got = read_source(inflater, input + state->avail_in, inflater->block_size - state->avail_in);
                    if (got < 0) { finished = -1; error = "gzip: cannot read the file"; break; }
                    if (got == 0) input_ended = 1;
                    state->next_in = input;
                    state->avail_in += (uint32_t)got;
                }
                if (!carchive_starts_gzip_member(state->next_in, state->avail_in)) { finished = 1; break; }
                uint8_t *next_in = state->next_in;
                uint32_t avail_in = state->avail_in;
                uint8_t *next_out = state->next_out;
                uint32_t avail_out = state->avail_out;
                isal_inflate_reset(state);
                state->crc_flag = ISAL_GZIP;
                state->next_in = next_in;
                state->avail_in = avail_in;
                state->next_out = next_out;
                state->avail_out = avail_out;
                continue;
            }
            // All input read, output room left, and the member still open: the file ends early.
            if (state->avail_in == 0 && input_ended && state->avail_out > 0) {
                finished = -1;
                error = "truncated gzip input";
                break;
            }
        }
        publish(inflater, SLOT_SIZE - state->avail_out, consumed, finished, error);
        if (finished != 0) break;
    }
    free(input);
    free(state);
    return NULL;
}

carchive_inflater *carchive_inflater_start(carchive_read_fn read, void *context, size_t block_size) {
    struct carchive_inflater *inflater = calloc(1, sizeof(struct carchive_inflater));
    if (inflater == NULL) return NULL;
    inflater->read = read;
    inflater->context = context;
    inflater->block_size = block_size < 4096 ? 4096 : block_size;
    for (int index = 0; index < SLOT_COUNT; index += 1) {
        inflater->slots[index] = malloc(SLOT_SIZE);
        if (inflater->slots[index] == NULL) {
            for (int other = 0; other < index; other += 1) free(inflater->slots[other]);
            free(inflater);
            return NULL;
        }
    }
    pthread_mutex_init(&inflater->lock, NULL);
    pthread_cond_init(&inflater->changed, NULL);
    if (pthread_create(&inflater->thread, NULL, inflate_all, inflater) != 0) {
        pthread_mutex_destroy(&inflater->lock);
        pthread_cond_destroy(&inflater->changed);
        for (int index = 0; index < SLOT_COUNT; index += 1) free(inflater->slots[index]);
        free(inflater);
        return NULL;
    }
    return inflater;
}

long carchive_inflater_next(carchive_inflater *inflater, const void **buffer, const char **error) {
    pthread_mutex_lock(&inflater->lock);
    // The last buffer handed out is libarchive's no longer.
    if (inflater->released < inflater->taken) {
        inflater->released = inflater->taken;
        pthread_cond_broadcast(&inflater->changed);
    }
    while (inflater->taken == inflater->filled && inflater->finished == 0) {
        pthread_cond_wait(&inflater->changed, &inflater->lock);
    }
    long result;
    if (inflater->taken < inflater->filled) {
        unsigned slot = (unsigned)(inflater->taken % SLOT_COUNT);
        *buffer = inflater->slots[slot];
        result = (long)inflater->lengths[slot];
        inflater->compressed_delivered = inflater->compressed_after[slot];
        inflater->taken += 1;
    } else if (inflater->finished < 0) {
        *error = inflater->error;
        result = -1;
    } else {
        result = 0;
    }
    pthread_mutex_unlock(&inflater->lock);
    return result;
}

int64_t carchive_inflater_compressed_position(carchive_inflater *inflater) {
    pthread_mutex_lock(&inflater->lock);
    int64_t position = inflater->compressed_delivered;
    pthread_mutex_unlock(&inflater->lock);
    return position;
}

void carchive_inflater_stop(carchive_inflater *inflater) {
    if (inflater == NULL) return;
    pthread_mutex_lock(&inflater->lock);
    inflater->stopping = 1;
    pthread_cond_broadcast(&inflater->changed);
    pthread_mutex_unlock(&inflater->lock);
    pthread_join(inflater->thread, NULL);
    pthread_mutex_destroy(&inflater->lock);
    pthread_cond_destroy(&inflater->changed);
    for (int index = 0; index < SLOT_COUNT; index += 1) free(inflater->slots[index]);
    free(inflater);
}

long carchive_gunzip_start(const void *bytes, size_t count, void *out, size_t capacity) {
    struct inflate_state *state = malloc(sizeof(struct inflate_state));
    if (state == NULL) return -1;
    isal_inflate_init(state);
    state->crc_flag = ISAL_GZIP;
    state->next_in = (unsigned char *)bytes;
    state->avail_in = (uint32_t)count;
    state->next_out = out;
    state->avail_out = (uint32_t)capacity;
    // Stops when `out` is full or the bytes end: a start cut short is no error here.
    int status = isal_inflate(state);
    long produced = (long)(capacity - state->avail_out);
    free(state);
    if (status != ISAL_DECOMP_OK && status != ISAL_END_INPUT && status != ISAL_OUT_OVERFLOW) return -1;
    return produced;
}
