#ifndef HEALTHSPOOL_CTLSSERVER_H
#define HEALTHSPOOL_CTLSSERVER_H

#include <stddef.h>

/* The ingest endpoint's TLS, over OpenSSL's libssl: a server context from a PEM certificate
 * and key, the accept handshake and blocking-with-a-deadline reads and writes on one
 * connection, and the daemon's own self-signed certificate. Every wait is a poll(2) with a
 * timeout: no call blocks longer than the milliseconds it is given. */

/* A server context (an SSL_CTX with the certificate and key loaded). */
typedef struct hs_tls_server hs_tls_server;
/* One accepted connection (its SSL and socket). */
typedef struct hs_tls_conn hs_tls_conn;

/* Loads `cert_path` (PEM, chain allowed) and `key_path`; NULL with a reason in `err` on failure. */
hs_tls_server *hs_tls_server_new(const char *cert_path, const char *key_path, char *err, size_t err_len);
void hs_tls_server_free(hs_tls_server *server);

/* Runs the server handshake on `fd` (made non-blocking) within `timeout_ms`. On failure NULL
 * is returned with a reason in `err` and the caller still owns (and closes) `fd`; on success
 * the connection owns it. */
hs_tls_conn *hs_tls_accept(hs_tls_server *server, int fd, int timeout_ms, char *err, size_t err_len);

/* Reads up to `len` bytes: > 0 bytes read, 0 the peer closed, -1 nothing within `timeout_ms`,
 * -2 a TLS or socket error. */
long hs_tls_read(hs_tls_conn *conn, void *buf, size_t len, int timeout_ms);

/* Writes all `len` bytes: 0 done, -1 not done within `timeout_ms`, -2 an error. */
int hs_tls_write_all(hs_tls_conn *conn, const void *buf, size_t len, int timeout_ms);

/* Sends close_notify (without waiting for the peer's), closes the socket, frees the connection. */
void hs_tls_close(hs_tls_conn *conn);

/* Makes an EC P-256 key and a self-signed certificate for `common_name` with the given
 * subjectAltName entries (`san`, e.g. "IP:192.168.1.5,DNS:myhost.local"), valid for `days`,
 * and gives both as PEM text in `cert_pem` and `key_pem` (`*cert_len`, `*key_len`: their room
 * on entry, the text's length on return; not NUL-terminated). The caller writes the files
 * (SafeWrite, the one way healthspool creates files). 0 on success, -1 with a reason in `err`. */
int hs_tls_make_self_signed(char *cert_pem, size_t *cert_len, char *key_pem, size_t *key_len, const char *common_name,
                            const char *san, int days, char *err, size_t err_len);

/* Fills `buf` with `len` cryptographically random bytes; 0 on success. */
int hs_tls_random(unsigned char *buf, int len);

#endif
