#include <zlib.h>

/// deflateInit2/inflateInit2 are macros: wrap them.
static inline int hs_deflate_init_gzip(z_stream *s, int level) {
    return deflateInit2(s, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
}
static inline int hs_inflate_init_raw(z_stream *s) {
    return inflateInit2(s, -15);
}
static inline int hs_inflate_init_auto(z_stream *s) {
    return inflateInit2(s, 15 + 32);
}
