#include "CCryptoShim.h"

#include <openssl/evp.h>

#include <limits.h>

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

int ccrypto_aes_cbc_decrypt_in_pieces(const uint8_t *key, size_t key_length, const uint8_t *iv,
                                      const uint8_t *input, uint8_t *output, size_t length,
                                      size_t piece_limit) {
    const EVP_CIPHER *cipher;
    switch (key_length) {
    case 16: cipher = EVP_aes_128_cbc(); break;
    case 24: cipher = EVP_aes_192_cbc(); break;
    case 32: cipher = EVP_aes_256_cbc(); break;
    default: return CCRYPTO_BAD_KEY_SIZE;
    }
    if (length % 16 != 0) return CCRYPTO_BAD_LENGTH;
    if (length == 0) return CCRYPTO_OK;
    if (piece_limit == 0 || piece_limit % 16 != 0 || piece_limit > INT_MAX) return CCRYPTO_FAILED;
    if (key == NULL || iv == NULL || input == NULL || output == NULL || cipher == NULL) return CCRYPTO_FAILED;
    EVP_CIPHER_CTX *context = EVP_CIPHER_CTX_new();
    if (context == NULL) return CCRYPTO_FAILED;
    int status = decrypt_with(context, cipher, key, iv, input, output, length, piece_limit);
    EVP_CIPHER_CTX_free(context);
    return status;
}
