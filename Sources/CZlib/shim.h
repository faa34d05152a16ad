// zlib's stream initializers are macros, which Swift cannot call; these functions call them.
#ifndef STOCKTAKE_CZLIB_SHIM_H
#define STOCKTAKE_CZLIB_SHIM_H

#include <zlib.h>

/// Prepares `stream` to inflate raw deflate data (no zlib or gzip header), as ZIP entries hold it.
static inline int stocktake_inflate_init_raw(z_stream *stream) {
    return inflateInit2(stream, -MAX_WBITS);
}

/// Prepares `stream` to deflate into raw deflate data (no zlib or gzip header) at `level`.
static inline int stocktake_deflate_init_raw(z_stream *stream, int level) {
    return deflateInit2(stream, level, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY);
}

#endif
