/* See include/CTLSServer.h. */
#define _GNU_SOURCE
#include "CTLSServer.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

struct hs_tls_server { SSL_CTX *ctx; };
struct hs_tls_conn { SSL *ssl; int fd; };

/* The reason of the last OpenSSL error, prefixed by `what`. */
static void set_error(char *err, size_t err_len, const char *what) {
    if (!err || err_len == 0) return;
    unsigned long code = ERR_get_error();
    if (code) {
        char reason[256];
        ERR_error_string_n(code, reason, sizeof reason);
        snprintf(err, err_len, "%s: %s", what, reason);
    } else if (errno) {
        snprintf(err, err_len, "%s: %s", what, strerror(errno));
    } else {
        snprintf(err, err_len, "%s", what);
    }
    ERR_clear_error();
}

static long long now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Waits for `events` on `fd` until `deadline` (monotonic ms): 1 ready, 0 timed out, -1 error. */
static int wait_fd(int fd, short events, long long deadline) {
    for (;;) {
        long long left = deadline - now_ms();
        if (left <= 0) return 0;
        struct pollfd p = { .fd = fd, .events = events, .revents = 0 };
        int r = poll(&p, 1, left > 1000000 ? 1000000 : (int)left);
        if (r > 0) return 1;
        if (r == 0) return 0;
        if (errno != EINTR) return -1;
    }
}

hs_tls_server *hs_tls_server_new(const char *cert_path, const char *key_path, char *err, size_t err_len) {
    SSL_CTX *ctx = SSL_CTX_new(TLS_server_method());
    if (!ctx) { set_error(err, err_len, "cannot create a TLS context"); return NULL; }
    SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION);
    SSL_CTX_set_options(ctx, SSL_OP_IGNORE_UNEXPECTED_EOF | SSL_OP_NO_RENEGOTIATION);
    SSL_CTX_set_session_cache_mode(ctx, SSL_SESS_CACHE_OFF);
    if (SSL_CTX_use_certificate_chain_file(ctx, cert_path) != 1) {
        char what[512];
        snprintf(what, sizeof what, "cannot read the certificate %s", cert_path);
        set_error(err, err_len, what);
        SSL_CTX_free(ctx);
        return NULL;
    }
    if (SSL_CTX_use_PrivateKey_file(ctx, key_path, SSL_FILETYPE_PEM) != 1 || SSL_CTX_check_private_key(ctx) != 1) {
        char what[512];
        snprintf(what, sizeof what, "cannot use the private key %s with the certificate %s", key_path, cert_path);
        set_error(err, err_len, what);
        SSL_CTX_free(ctx);
        return NULL;
    }
    hs_tls_server *server = calloc(1, sizeof *server);
    if (!server) { SSL_CTX_free(ctx); return NULL; }
    server->ctx = ctx;
    return server;
}

void hs_tls_server_free(hs_tls_server *server) {
    if (!server) return;
    SSL_CTX_free(server->ctx);
    free(server);
}

hs_tls_conn *hs_tls_accept(hs_tls_server *server, int fd, int timeout_ms, char *err, size_t err_len) {
    int flags = fcntl(fd, F_GETFL);
    if (flags < 0 || fcntl(fd, F_SETFL, flags | O_NONBLOCK) < 0) {
        set_error(err, err_len, "cannot make the socket non-blocking");
        return NULL;
    }
    SSL *ssl = SSL_new(server->ctx);
    if (!ssl || SSL_set_fd(ssl, fd) != 1) {
        set_error(err, err_len, "cannot set up the TLS connection");
        if (ssl) SSL_free(ssl);
        return NULL;
    }
    long long deadline = now_ms() + timeout_ms;
    for (;;) {
        ERR_clear_error();
        errno = 0;
        int r = SSL_accept(ssl);
        if (r == 1) break;
        int e = SSL_get_error(ssl, r);
        int ready = -1;
        if (e == SSL_ERROR_WANT_READ) ready = wait_fd(fd, POLLIN, deadline);
        else if (e == SSL_ERROR_WANT_WRITE) ready = wait_fd(fd, POLLOUT, deadline);
        if (ready == 1) continue;
        if (ready == 0) snprintf(err, err_len, "TLS handshake not finished within %d ms", timeout_ms);
        else set_error(err, err_len, "TLS handshake failed");
        SSL_free(ssl);
        return NULL;
    }
    hs_tls_conn *conn = calloc(1, sizeof *conn);
    if (!conn) { SSL_free(ssl); return NULL; }
    conn->ssl = ssl;
    conn->fd = fd;
    return conn;
}

long hs_tls_read(hs_tls_conn *conn, void *buf, size_t len, int timeout_ms) {
    long long deadline = now_ms() + timeout_ms;
    for (;;) {
        ERR_clear_error();
        errno = 0;
        size_t got = 0;
        int r = SSL_read_ex(conn->ssl, buf, len, &got);
        if (r == 1) return (long)got;
        int e = SSL_get_error(conn->ssl, r);
        int ready;
        switch (e) {
        case SSL_ERROR_ZERO_RETURN: return 0;
        case SSL_ERROR_WANT_READ: ready = wait_fd(conn->fd, POLLIN, deadline); break;
        case SSL_ERROR_WANT_WRITE: ready = wait_fd(conn->fd, POLLOUT, deadline); break;
        case SSL_ERROR_SYSCALL: if (errno == 0) return 0; return -2;
        default: return -2;
        }
        if (ready == 0) return -1;
        if (ready < 0) return -2;
    }
}

int hs_tls_write_all(hs_tls_conn *conn, const void *buf, size_t len, int timeout_ms) {
    long long deadline = now_ms() + timeout_ms;
    const unsigned char *p = buf;
    while (len > 0) {
        ERR_clear_error();
        errno = 0;
        size_t done = 0;
        int r = SSL_write_ex(conn->ssl, p, len, &done);
        if (r == 1) { p += done; len -= done; continue; }
        int e = SSL_get_error(conn->ssl, r);
        int ready;
        if (e == SSL_ERROR_WANT_WRITE) ready = wait_fd(conn->fd, POLLOUT, deadline);
        else if (e == SSL_ERROR_WANT_READ) ready = wait_fd(conn->fd, POLLIN, deadline);
        else return -2;
        if (ready == 0) return -1;
        if (ready < 0) return -2;
    }
    return 0;
}

void hs_tls_close(hs_tls_conn *conn) {
    if (!conn) return;
    ERR_clear_error();
    SSL_shutdown(conn->ssl);   /* one try: non-blocking, the peer's close_notify is not awaited */
    ERR_clear_error();
    SSL_free(conn->ssl);
    close(conn->fd);
    free(conn);
}

/* PEM text of `object` (written by `write_pem`) into `out` (`*len` its room; set to the length). */
static int pem_text(int (*write_pem)(BIO *, void *), void *object, char *out, size_t *len, char *err, size_t err_len) {
    BIO *bio = BIO_new(BIO_s_mem());
    char *data = NULL;
    long n = 0;
    int ok = bio && write_pem(bio, object) == 1 && (n = BIO_get_mem_data(bio, &data)) > 0 && (size_t)n <= *len;
    if (ok) { memcpy(out, data, (size_t)n); *len = (size_t)n; }
    else set_error(err, err_len, "cannot write the certificate as PEM");
    BIO_free(bio);
    return ok ? 0 : -1;
}

static int write_key(BIO *b, void *key) { return PEM_write_bio_PrivateKey(b, key, NULL, NULL, 0, NULL, NULL); }
static int write_cert(BIO *b, void *cert) { return PEM_write_bio_X509(b, cert); }

/* Adds one X.509 v3 extension (self-issued: issuer and subject are the certificate itself). */
static int add_extension(X509 *cert, int nid, const char *value) {
    X509V3_CTX ctx;
    X509V3_set_ctx_nodb(&ctx);
    X509V3_set_ctx(&ctx, cert, cert, NULL, NULL, 0);
    X509_EXTENSION *ext = X509V3_EXT_conf_nid(NULL, &ctx, nid, value);
    if (!ext) return 0;
    int ok = X509_add_ext(cert, ext, -1);
    X509_EXTENSION_free(ext);
    return ok;
}

int hs_tls_make_self_signed(char *cert_pem, size_t *cert_len, char *key_pem, size_t *key_len, const char *common_name,
                            const char *san, int days, char *err, size_t err_len) {
    int result = -1;
    EVP_PKEY *key = EVP_EC_gen("P-256");
    X509 *cert = X509_new();
    unsigned char serial[16];
    if (!key || !cert || RAND_bytes(serial, sizeof serial) != 1) { set_error(err, err_len, "cannot make a key"); goto done; }
    serial[0] &= 0x7f;   /* a positive serial number */
    BIGNUM *bn = BN_bin2bn(serial, sizeof serial, NULL);
    int serial_ok = bn && BN_to_ASN1_INTEGER(bn, X509_get_serialNumber(cert)) != NULL;
    BN_free(bn);
    X509_NAME *name = X509_get_subject_name(cert);
    if (!serial_ok || X509_set_version(cert, 2) != 1
        || !X509_gmtime_adj(X509_getm_notBefore(cert), -3600)
        || !X509_gmtime_adj(X509_getm_notAfter(cert), (long)days * 86400)
        || X509_set_pubkey(cert, key) != 1
        || X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_UTF8, (const unsigned char *)common_name, -1, -1, 0) != 1
        || X509_NAME_add_entry_by_txt(name, "O", MBSTRING_UTF8, (const unsigned char *)"healthspool", -1, -1, 0) != 1
        || X509_set_issuer_name(cert, name) != 1
        || !add_extension(cert, NID_basic_constraints, "critical,CA:TRUE,pathlen:0")
        || !add_extension(cert, NID_key_usage, "critical,digitalSignature,keyCertSign")
        || !add_extension(cert, NID_ext_key_usage, "serverAuth")
        || !add_extension(cert, NID_subject_key_identifier, "hash")
        || (san && *san && !add_extension(cert, NID_subject_alt_name, san))
        || X509_sign(cert, key, EVP_sha256()) == 0) {
        set_error(err, err_len, "cannot make the certificate");
        goto done;
    }
    if (pem_text(write_key, key, key_pem, key_len, err, err_len) != 0) goto done;
    if (pem_text(write_cert, cert, cert_pem, cert_len, err, err_len) != 0) goto done;
    result = 0;
done:
    X509_free(cert);
    EVP_PKEY_free(key);
    return result;
}

int hs_tls_random(unsigned char *buf, int len) {
    return RAND_bytes(buf, len) == 1 ? 0 : -1;
}
