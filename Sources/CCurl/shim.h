// Typed wrappers around libcurl's variadic calls, which Swift cannot call directly.
#ifndef STOCKTAKE_CCURL_SHIM_H
#define STOCKTAKE_CCURL_SHIM_H

#include <curl/curl.h>

typedef size_t (*stocktake_curl_data_callback)(char *data, size_t size, size_t count, void *context);
typedef int (*stocktake_curl_progress_callback)(void *context, curl_off_t download_total, curl_off_t download_now,
                                                curl_off_t upload_total, curl_off_t upload_now);

static inline CURLcode stocktake_curl_set_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode stocktake_curl_set_offset(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode stocktake_curl_set_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode stocktake_curl_set_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode stocktake_curl_set_headers(CURL *handle, struct curl_slist *headers) {
    return curl_easy_setopt(handle, CURLOPT_HTTPHEADER, headers);
}

static inline CURLcode stocktake_curl_set_write_callback(CURL *handle, stocktake_curl_data_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, callback);
}

static inline CURLcode stocktake_curl_set_header_callback(CURL *handle, stocktake_curl_data_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_HEADERFUNCTION, callback);
}

static inline CURLcode stocktake_curl_set_progress_callback(CURL *handle, stocktake_curl_progress_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, callback);
}

static inline CURLcode stocktake_curl_get_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

/// CURLAUTH_BEARER is a cast macro that Swift cannot import.
static const long stocktake_curlauth_bearer = (long)CURLAUTH_BEARER;
/// CURL_GLOBAL_DEFAULT likewise.
static const long stocktake_curl_global_default = (long)CURL_GLOBAL_DEFAULT;

#endif
