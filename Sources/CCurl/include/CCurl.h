// libcurl for HTTPTransport on Linux, loaded with dlopen at the first request, so that a process
// that never makes one (most dbgen commands) never maps libcurl and what it links (OpenSSL...).
// curl.h (Debian: libcurl4-openssl-dev) gives the types and constants; the functions are called
// through pointers that shipyard_curl_load() looks up. Only on Linux: Apple platforms use
// URLSession, and their SDKs have no curl.h. libcurl 7.85 or later (CURLOPT_PROTOCOLS_STR).
#ifndef SHIPYARD_CCURL_H
#define SHIPYARD_CCURL_H

#if defined(__linux__)
#include <curl/curl.h>
#include <stddef.h>

/// Loads libcurl.so.4 and initialises it, once per process (later calls return the first
/// result). Returns 0, or -1 with why in `reason` (at most `size` bytes, NUL-terminated).
int shipyard_curl_load(char *reason, size_t size);

/// The loaded library's version text ("7.88.1"); NULL before a successful load.
const char *shipyard_curl_version(void);

CURL *shipyard_curl_easy_init(void);
void shipyard_curl_easy_cleanup(CURL *handle);
CURLcode shipyard_curl_setopt_long(CURL *handle, CURLoption option, long value);
CURLcode shipyard_curl_setopt_pointer(CURL *handle, CURLoption option, const void *value);
/// CURLOPT_WRITEFUNCTION and CURLOPT_HEADERFUNCTION take a function of this type.
CURLcode shipyard_curl_setopt_callback(CURL *handle, CURLoption option, curl_write_callback value);
const char *shipyard_curl_easy_strerror(CURLcode code);

struct curl_slist *shipyard_curl_slist_append(struct curl_slist *list, const char *line);
void shipyard_curl_slist_free_all(struct curl_slist *list);

CURLM *shipyard_curl_multi_init(void);
CURLMcode shipyard_curl_multi_add_handle(CURLM *multi, CURL *handle);
CURLMcode shipyard_curl_multi_remove_handle(CURLM *multi, CURL *handle);
CURLMcode shipyard_curl_multi_perform(CURLM *multi, int *running);
/// Waits for activity on the transfer's sockets for at most `timeout` ms (or until a wakeup).
CURLMcode shipyard_curl_multi_poll(CURLM *multi, int timeout);
/// Ends a poll under way from another thread.
CURLMcode shipyard_curl_multi_wakeup(CURLM *multi);
CURLMcode shipyard_curl_multi_cleanup(CURLM *multi);
/// 1 and the easy handle's result in `result` once its transfer is done; 0 while it runs.
int shipyard_curl_multi_done(CURLM *multi, CURLcode *result);
#endif

#endif
