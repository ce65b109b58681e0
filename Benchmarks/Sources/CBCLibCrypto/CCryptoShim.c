#include "CCryptoShim.h"

#include <openssl/evp.h>

#include <limits.h>
#include <pthread.h>

static int decrypt_with(EVP_CIPHER_CTX *context, const EVP_CIPHER *cipher, const uint8_t *key,
                        const uint8_t *iv, const uint8_t *input, uint8_t *output, size_t length,
                        size_t piece_limit) {
    if (EVP_DecryptInit_ex(context, cipher, NULL, key, iv) != 1) return CCRYPTO_FAILED;
    /* Without padding every whole block is written at once; nothing is held back for Final. */
    if (EVP_CIPHER_CTX_set_padding(context, 0) != 1) return CCRYPTO_FAILED;
    /* A longer input goes in pieces, the context carrying the chaining block across them. */
    size_t done = 0;
    while (done < length) {
        size_t piece = length - done < piece_limit ? length - done : piece_limit;
        int written = 0;
        if (EVP_DecryptUpdate(context, output + done, &written, input + done, (int)piece) != 1) return CCRYPTO_FAILED;
        if (written < 0 || (size_t)written != piece) return CCRYPTO_FAILED;
        done += piece;
    }
    int final_written = 0;
    if (EVP_DecryptFinal_ex(context, output + done, &final_written) != 1 || final_written != 0) return CCRYPTO_FAILED;
    return CCRYPTO_OK;
}

int ccrypto_aes_cbc_decrypt(const uint8_t *key, size_t key_length, const uint8_t *iv,
                            const uint8_t *input, uint8_t *output, size_t length) {
    return ccrypto_aes_cbc_decrypt_in_pieces(key, key_length, iv, input, output, length, CCRYPTO_PIECE_LIMIT);
}

/* The three ciphers, fetched from the default provider once: EVP_aes_*_cbc() makes every
 * EVP_DecryptInit_ex look the implementation up again by name, which cost as much as decrypting
 * the one block a scan decrypts of most files of an encrypted backup. */
static EVP_CIPHER *fetched[3];
static pthread_once_t fetch_once = PTHREAD_ONCE_INIT;

static void fetch_ciphers(void) {
    fetched[0] = EVP_CIPHER_fetch(NULL, "AES-128-CBC", NULL);
    fetched[1] = EVP_CIPHER_fetch(NULL, "AES-192-CBC", NULL);
    fetched[2] = EVP_CIPHER_fetch(NULL, "AES-256-CBC", NULL);
}

/* The cipher for a key of `key_length` bytes (fetched, or looked up by EVP_DecryptInit_ex when
 * fetching failed), NULL for another length. */
static const EVP_CIPHER *cipher_for(size_t key_length) {
    pthread_once(&fetch_once, fetch_ciphers);
    switch (key_length) {
    case 16: return fetched[0] != NULL ? fetched[0] : EVP_aes_128_cbc();
    case 24: return fetched[1] != NULL ? fetched[1] : EVP_aes_192_cbc();
    case 32: return fetched[2] != NULL ? fetched[2] : EVP_aes_256_cbc();
    default: return NULL;
    }
}

int ccrypto_aes_cbc_decrypt_in_pieces(const uint8_t *key, size_t key_length, const uint8_t *iv,
                                      const uint8_t *input, uint8_t *output, size_t length,
                                      size_t piece_limit) {
    if (key_length != 16 && key_length != 24 && key_length != 32) return CCRYPTO_BAD_KEY_SIZE;
    if (length % 16 != 0) return CCRYPTO_BAD_LENGTH;
    if (length == 0) return CCRYPTO_OK;
    if (piece_limit == 0 || piece_limit % 16 != 0 || piece_limit > INT_MAX) return CCRYPTO_FAILED;
    if (key == NULL || iv == NULL || input == NULL || output == NULL) return CCRYPTO_FAILED;
    const EVP_CIPHER *cipher = cipher_for(key_length);
    if (cipher == NULL) return CCRYPTO_FAILED;
    EVP_CIPHER_CTX *context = EVP_CIPHER_CTX_new();
    if (context == NULL) return CCRYPTO_FAILED;
    int status = decrypt_with(context, cipher, key, iv, input, output, length, piece_limit);
    EVP_CIPHER_CTX_free(context);
    return status;
}
