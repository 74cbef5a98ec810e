#include <openssl/evp.h>

/// SHA-256 of `n` bytes into `out` (32 bytes), through OpenSSL (SHA extensions where the CPU
/// has them). The digest is fetched once and shared: EVP_MD objects are safe across threads.
/// Returns 1 on success.
static inline int hs_sha256(const void *data, size_t n, unsigned char *out) {
    static EVP_MD *md;
    EVP_MD *m = __atomic_load_n(&md, __ATOMIC_ACQUIRE);
    if (m == NULL) {
        m = EVP_MD_fetch(NULL, "SHA256", NULL);
        if (m == NULL) return 0;
        EVP_MD *expected = NULL;
        if (!__atomic_compare_exchange_n(&md, &expected, m, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
            EVP_MD_free(m);
            m = expected;
        }
    }
    unsigned int len = 0;
    return EVP_Digest(data, n, out, &len, m, NULL);
}

/// A streaming SHA-256: a context from `hs_sha256_begin` (NULL when libcrypto cannot give
/// one), fed with `hs_sha256_update`, finished and freed by `hs_sha256_end` (32 bytes into out;
/// out may be NULL to only free it). Returns 1 on success.
static inline EVP_MD_CTX *hs_sha256_begin(void) {
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    if (ctx == NULL) return NULL;
    if (EVP_DigestInit_ex(ctx, EVP_sha256(), NULL) != 1) { EVP_MD_CTX_free(ctx); return NULL; }
    return ctx;
}

static inline int hs_sha256_update(EVP_MD_CTX *ctx, const void *data, size_t n) {
    return EVP_DigestUpdate(ctx, data, n);
}

static inline int hs_sha256_end(EVP_MD_CTX *ctx, unsigned char *out) {
    unsigned int len = 0;
    int ok = out == NULL ? 1 : EVP_DigestFinal_ex(ctx, out, &len);
    EVP_MD_CTX_free(ctx);
    return ok;
}
