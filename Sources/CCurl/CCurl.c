#include "CCurl.h"

#if defined(__linux__)
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

// What HTTPTransport calls, looked up once. The variadic ones (setopt) are called through
// pointers of their own variadic type, so every argument is passed as libcurl reads it.
static struct {
    CURLcode (*global_init)(long flags);
    char *(*version)(void);
    CURL *(*easy_init)(void);
    void (*easy_cleanup)(CURL *handle);
    CURLcode (*easy_setopt)(CURL *handle, CURLoption option, ...);
    const char *(*easy_strerror)(CURLcode code);
    struct curl_slist *(*slist_append)(struct curl_slist *list, const char *line);
    void (*slist_free_all)(struct curl_slist *list);
    CURLM *(*multi_init)(void);
    CURLMcode (*multi_add_handle)(CURLM *multi, CURL *handle);
    CURLMcode (*multi_remove_handle)(CURLM *multi, CURL *handle);
    CURLMcode (*multi_perform)(CURLM *multi, int *running);
    CURLMcode (*multi_poll)(CURLM *multi, struct curl_waitfd *fds, unsigned count, int timeout, int *ready);
    CURLMcode (*multi_wakeup)(CURLM *multi);
    CURLMcode (*multi_cleanup)(CURLM *multi);
    CURLMsg *(*multi_info_read)(CURLM *multi, int *queued);
} api;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static char failure[512];
static int loaded;
static const char *version_text;

static void *symbol(void *library, const char *name) {
    void *found = dlsym(library, name);
    if (found == NULL && failure[0] == 0) {
        snprintf(failure, sizeof failure, "libcurl.so.4 has no %s (libcurl 7.85 or later is needed)", name);
    }
    return found;
}

static void load(void) {
    void *library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        const char *why = dlerror();
        snprintf(failure, sizeof failure, "cannot load libcurl.so.4 (Debian: apt-get install libcurl4): %s",
                 why ? why : "not found");
        return;
    }
    // Each cast turns dlsym's object pointer into the function's own type (POSIX allows it).
    *(void **)&api.global_init = symbol(library, "curl_global_init");
    *(void **)&api.version = symbol(library, "curl_version");
    *(void **)&api.easy_init = symbol(library, "curl_easy_init");
    *(void **)&api.easy_cleanup = symbol(library, "curl_easy_cleanup");
    *(void **)&api.easy_setopt = symbol(library, "curl_easy_setopt");
    *(void **)&api.easy_strerror = symbol(library, "curl_easy_strerror");
    *(void **)&api.slist_append = symbol(library, "curl_slist_append");
    *(void **)&api.slist_free_all = symbol(library, "curl_slist_free_all");
    *(void **)&api.multi_init = symbol(library, "curl_multi_init");
    *(void **)&api.multi_add_handle = symbol(library, "curl_multi_add_handle");
    *(void **)&api.multi_remove_handle = symbol(library, "curl_multi_remove_handle");
    *(void **)&api.multi_perform = symbol(library, "curl_multi_perform");
    *(void **)&api.multi_poll = symbol(library, "curl_multi_poll");
    *(void **)&api.multi_wakeup = symbol(library, "curl_multi_wakeup");
    *(void **)&api.multi_cleanup = symbol(library, "curl_multi_cleanup");
    *(void **)&api.multi_info_read = symbol(library, "curl_multi_info_read");
    if (failure[0] != 0) {
        return;
    }
    CURLcode code = api.global_init(CURL_GLOBAL_DEFAULT);
    if (code != CURLE_OK) {
        snprintf(failure, sizeof failure, "curl_global_init failed: %s", api.easy_strerror(code));
        return;
    }
    version_text = api.version();
    loaded = 1;
}

int shipyard_curl_load(char *reason, size_t size) {
    pthread_once(&once, load);
    if (loaded) {
        return 0;
    }
    if (reason != NULL && size > 0) {
        snprintf(reason, size, "%s", failure);
    }
    return -1;
}

const char *shipyard_curl_version(void) { return loaded ? version_text : NULL; }

CURL *shipyard_curl_easy_init(void) { return api.easy_init(); }
void shipyard_curl_easy_cleanup(CURL *handle) { api.easy_cleanup(handle); }

CURLcode shipyard_curl_setopt_long(CURL *handle, CURLoption option, long value) {
    return api.easy_setopt(handle, option, value);
}

CURLcode shipyard_curl_setopt_pointer(CURL *handle, CURLoption option, const void *value) {
    return api.easy_setopt(handle, option, value);
}

CURLcode shipyard_curl_setopt_callback(CURL *handle, CURLoption option, curl_write_callback value) {
    return api.easy_setopt(handle, option, value);
}

const char *shipyard_curl_easy_strerror(CURLcode code) { return api.easy_strerror(code); }

struct curl_slist *shipyard_curl_slist_append(struct curl_slist *list, const char *line) {
    return api.slist_append(list, line);
}

void shipyard_curl_slist_free_all(struct curl_slist *list) { api.slist_free_all(list); }

CURLM *shipyard_curl_multi_init(void) { return api.multi_init(); }
CURLMcode shipyard_curl_multi_add_handle(CURLM *multi, CURL *handle) { return api.multi_add_handle(multi, handle); }
CURLMcode shipyard_curl_multi_remove_handle(CURLM *multi, CURL *handle) {
    return api.multi_remove_handle(multi, handle);
}
CURLMcode shipyard_curl_multi_perform(CURLM *multi, int *running) { return api.multi_perform(multi, running); }
CURLMcode shipyard_curl_multi_poll(CURLM *multi, int timeout) { return api.multi_poll(multi, NULL, 0, timeout, NULL); }
CURLMcode shipyard_curl_multi_wakeup(CURLM *multi) { return api.multi_wakeup(multi); }
CURLMcode shipyard_curl_multi_cleanup(CURLM *multi) { return api.multi_cleanup(multi); }

int shipyard_curl_multi_done(CURLM *multi, CURLcode *result) {
    int queued = 0;
    CURLMsg *message;
    while ((message = api.multi_info_read(multi, &queued)) != NULL) {
        if (message->msg == CURLMSG_DONE) {
            *result = message->data.result;
            return 1;
        }
    }
    return 0;
}
#endif
