#ifndef CCRYPTOSHIM_H
#define CCRYPTOSHIM_H

#include <stddef.h>
#include <stdint.h>

/*
 * AES-CBC decryption in bulk, from the system's libcrypto (OpenSSL), for encrypted backups:
 * swift-crypto offers CBC only one block at a time (its BoringSSL copy is not a product), which
 * expands the key again for every 16-byte block. No OpenSSL type reaches Swift.
 */

/* What ccrypto_aes_cbc_decrypt returns. */
enum ccrypto_status {
    CCRYPTO_OK = 0,
    /* The key is not 16, 24 or 32 bytes. */
    CCRYPTO_BAD_KEY_SIZE = -1,
    /* The length is not a whole number of 16-byte blocks. */
    CCRYPTO_BAD_LENGTH = -2,
    /* libcrypto refused or failed. */
    CCRYPTO_FAILED = -3,
};

/* Decrypts `length` bytes of `input` into `output` (which may not overlap it) with AES-128, 192
 * or 256 in CBC mode, chained from `iv` (16 bytes), no padding removed. */
int ccrypto_aes_cbc_decrypt(const uint8_t *key, size_t key_length, const uint8_t *iv,
                            const uint8_t *input, uint8_t *output, size_t length);

/* EVP counts in int, so a longer input goes to it in pieces of at most this many bytes (1 GiB),
 * the context carrying the chaining block from one piece to the next. */
#define CCRYPTO_PIECE_LIMIT ((size_t)1 << 30)

/* The same with another piece size (a multiple of 16, at most INT_MAX; otherwise
 * CCRYPTO_FAILED): for tests, so that the chaining across pieces is checked on small buffers. */
int ccrypto_aes_cbc_decrypt_in_pieces(const uint8_t *key, size_t key_length, const uint8_t *iv,
                                      const uint8_t *input, uint8_t *output, size_t length,
                                      size_t piece_limit);

#endif
