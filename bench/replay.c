/* The gateway benchmark's ceiling: a client that does nothing but send. It loads pre-encoded
 * request bodies into memory, then POSTs them in order, ROUNDS times, through one libcurl easy
 * handle (one kept-alive TLS connection, or a new one per request with Connection: close), and
 * prints the seconds spent sending (loading the files is not timed).
 *
 *   replay URL CA_FILE ROUNDS GZIP(0|1) KEEPALIVE(0|1) BODY_FILE...
 *
 * Built by bench/gateway_bench.py: cc -O2 replay.c -lcurl
 */
#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static size_t discard(char *data, size_t size, size_t count, void *unused) {
    (void)data; (void)unused;
    return size * count;
}

static double seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

/* Every body, in order, ROUNDS times: the part that is timed (and that `gateway_bench.py
 * --instructions` counts under callgrind). */
__attribute__((noinline)) static int send_all(CURL *h, char **body, long *length, int n, int rounds) {
    for (int r = 0; r < rounds; r++) {
        for (int i = 0; i < n; i++) {
            curl_easy_setopt(h, CURLOPT_POSTFIELDS, body[i]);
            curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)length[i]);
            CURLcode rc = curl_easy_perform(h);
            long status = 0;
            curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &status);
            if (rc != CURLE_OK || status != 200) {
                fprintf(stderr, "request %d: %s, HTTP %ld\n", i, curl_easy_strerror(rc), status);
                return 1;
            }
        }
    }
    return 0;
}

int main(int argc, char **argv) {
    if (argc < 7) {
        fprintf(stderr, "usage: replay URL CA_FILE ROUNDS GZIP KEEPALIVE BODY_FILE...\n");
        return 2;
    }
    const char *url = argv[1], *ca = argv[2];
    int rounds = atoi(argv[3]), gzip = atoi(argv[4]), keepalive = atoi(argv[5]);
    int n = argc - 6;
    char **body = calloc(n, sizeof *body);
    long *length = calloc(n, sizeof *length);
    for (int i = 0; i < n; i++) {
        FILE *f = fopen(argv[6 + i], "rb");
        if (!f || fseek(f, 0, SEEK_END) != 0 || (length[i] = ftell(f)) < 0) { perror(argv[6 + i]); return 1; }
        rewind(f);
        body[i] = malloc(length[i] ? length[i] : 1);
        if (fread(body[i], 1, length[i], f) != (size_t)length[i]) { perror(argv[6 + i]); return 1; }
        fclose(f);
    }
    curl_global_init(CURL_GLOBAL_DEFAULT);
    CURL *h = curl_easy_init();
    struct curl_slist *headers = curl_slist_append(NULL, "Content-Type: application/json");
    headers = curl_slist_append(headers, "Expect:");
    if (gzip) headers = curl_slist_append(headers, "Content-Encoding: gzip");
    if (!keepalive) headers = curl_slist_append(headers, "Connection: close");
    curl_easy_setopt(h, CURLOPT_URL, url);
    curl_easy_setopt(h, CURLOPT_CAINFO, ca);
    curl_easy_setopt(h, CURLOPT_HTTPHEADER, headers);
    curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, discard);
    curl_easy_setopt(h, CURLOPT_POST, 1L);
    curl_easy_setopt(h, CURLOPT_UPLOAD_BUFFERSIZE, 512L * 1024);   /* as healthspool sets it */
    curl_easy_setopt(h, CURLOPT_FORBID_REUSE, keepalive ? 0L : 1L);
    double start = seconds();
    if (send_all(h, body, length, n, rounds) != 0) return 1;
    printf("%.6f\n", seconds() - start);
    curl_easy_cleanup(h);
    curl_slist_free_all(headers);
    return 0;
}
