/* static_route.c — the embedded viewer files (static_route.h). */
#include "static_route.h"

#include <microhttpd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "etag.h"
#include "gzip.h"

const ap_static_file *ap_static_find(const char *url)
{
    if (url == NULL)
        return NULL;
    if (strcmp(url, "/") == 0)
        url = "/index.html";
    for (size_t i = 0; i < ap_static_files_n; i++)
        if (strcmp(ap_static_files[i].path, url) == 0)
            return &ap_static_files[i];
    return NULL;
}

int ap_static_status(const ap_static_file *f, const char *if_none_match)
{
    return f == NULL ? 200 : ap_etag_precondition(NULL, if_none_match, f->etag, true);
}

void ap_static_add_headers(struct MHD_Response *resp, const ap_static_file *f, int weak)
{
    if (resp == NULL || f == NULL)
        return;
    char tag[80];
    snprintf(tag, sizeof tag, "%s%s", weak ? "W/" : "", f->etag);
    MHD_add_response_header(resp, MHD_HTTP_HEADER_ETAG, tag);
    MHD_add_response_header(resp, MHD_HTTP_HEADER_CACHE_CONTROL, AP_STATIC_CACHE_CONTROL);
}

ap_static_gz *ap_static_gzip_all(void)
{
    ap_static_gz *gz = calloc(ap_static_files_n ? ap_static_files_n : 1, sizeof *gz);
    for (size_t i = 0; gz != NULL && i < ap_static_files_n; i++) {
        const ap_static_file *f = &ap_static_files[i];
        if (f->len < AP_GZIP_MIN_BYTES)
            continue;
        gz[i].data = ap_gzip_compress(f->data, f->len, AP_GZIP_LEVEL_STATIC, &gz[i].len);
        if (gz[i].data != NULL && gz[i].len >= f->len) {
            free(gz[i].data);
            gz[i].data = NULL;
        }
    }
    return gz;
}

void ap_static_gzip_free(ap_static_gz *gz)
{
    for (size_t i = 0; gz != NULL && i < ap_static_files_n; i++)
        free(gz[i].data);
    free(gz);
}
