#ifndef LIVEGRID_CCURL_SHIM_H
#define LIVEGRID_CCURL_SHIM_H
// libcurl for LibrarySources' HTTP engine. curl_easy_setopt/curl_easy_getinfo are variadic, which Swift
// cannot call: the typed helpers below pass one argument type each.
#define CURL_DISABLE_TYPECHECK 1
#include <curl/curl.h>

typedef size_t (*ccurl_data_callback)(char *buffer, size_t size, size_t count, void *context);

static inline CURLcode ccurl_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode ccurl_setopt_offset(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}
/// Strings are copied by libcurl (since 7.17), so Swift's temporary C strings are fine.
static inline CURLcode ccurl_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}
/// Pointers that libcurl keeps (error buffer, header list, callback context) until the handle is cleaned up.
static inline CURLcode ccurl_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode ccurl_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(handle, option, value);
}
/// CURLOPT_WRITEFUNCTION and CURLOPT_HEADERFUNCTION.
static inline CURLcode ccurl_setopt_callback(CURL *handle, CURLoption option, ccurl_data_callback callback) {
    return curl_easy_setopt(handle, option, callback);
}

/// CURLOPT_SSH_KEYFUNCTION: decides on the server's host key (known_hosts match, mismatch or missing).
typedef int (*ccurl_sshkey_callback)(CURL *easy, const struct curl_khkey *knownkey,
                                     const struct curl_khkey *foundkey, enum curl_khmatch match, void *context);
static inline CURLcode ccurl_setopt_sshkey(CURL *handle, ccurl_sshkey_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_SSH_KEYFUNCTION, callback);
}

static inline long ccurl_info_long(CURL *handle, CURLINFO info) {
    long value = 0;
    if (curl_easy_getinfo(handle, info, &value) != CURLE_OK) return 0;
    return value;
}
/// curl_off_t infos (CURLINFO_*_T); -1 when unknown.
static inline curl_off_t ccurl_info_offset(CURL *handle, CURLINFO info) {
    curl_off_t value = -1;
    if (curl_easy_getinfo(handle, info, &value) != CURLE_OK) return -1;
    return value;
}
/// Owned by the handle: copy before the handle goes away. NULL when unknown.
static inline const char *ccurl_info_string(CURL *handle, CURLINFO info) {
    char *value = NULL;
    if (curl_easy_getinfo(handle, info, &value) != CURLE_OK) return NULL;
    return value;
}

static inline CURLcode ccurl_message_result(const CURLMsg *message) { return message->data.result; }

#endif
