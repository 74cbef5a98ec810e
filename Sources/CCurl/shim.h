#include <curl/curl.h>

/* curl_easy_setopt and curl_easy_getinfo are variadic: typed wrappers. */
static inline CURLcode hs_curl_set_long(CURL *c, CURLoption o, long v) { return curl_easy_setopt(c, o, v); }
static inline CURLcode hs_curl_set_str(CURL *c, CURLoption o, const char *v) { return curl_easy_setopt(c, o, v); }
static inline CURLcode hs_curl_set_ptr(CURL *c, CURLoption o, void *v) { return curl_easy_setopt(c, o, v); }
static inline CURLcode hs_curl_set_slist(CURL *c, CURLoption o, struct curl_slist *v) { return curl_easy_setopt(c, o, v); }
static inline CURLcode hs_curl_set_off(CURL *c, CURLoption o, curl_off_t v) { return curl_easy_setopt(c, o, v); }
typedef size_t (*hs_curl_write_cb)(char *, size_t, size_t, void *);
static inline CURLcode hs_curl_set_write(CURL *c, hs_curl_write_cb f, void *ud) {
    CURLcode r = curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, f);
    if (r != CURLE_OK) return r;
    return curl_easy_setopt(c, CURLOPT_WRITEDATA, ud);
}
static inline CURLcode hs_curl_set_header_cb(CURL *c, hs_curl_write_cb f, void *ud) {
    CURLcode r = curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, f);
    if (r != CURLE_OK) return r;
    return curl_easy_setopt(c, CURLOPT_HEADERDATA, ud);
}
static inline long hs_curl_info_long(CURL *c, CURLINFO i) { long v = 0; curl_easy_getinfo(c, i, &v); return v; }
static inline double hs_curl_info_double(CURL *c, CURLINFO i) { double v = 0; curl_easy_getinfo(c, i, &v); return v; }
static inline CURLcode hs_curl_global_init(void) { return curl_global_init(CURL_GLOBAL_DEFAULT); }
