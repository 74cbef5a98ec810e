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
