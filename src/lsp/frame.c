/* LSP's framing: a header block ("Content-Length: N", other headers
 * ignored) and N bytes of body. A bad header block is answered with a
 * ParseError and dropped; a body over the limit is read and dropped. */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "lsp/server.h"

int frame_at(lsp_server *s, size_t at, frame *f, size_t *next)
{
    const char *p = s->in + at, *end = s->in + s->in_len;
    size_t avail = (size_t)(end - p);
    const char *hdr_end = NULL;
    const char *stop = avail > LSP_MAX_HEADER + 4 ? p + LSP_MAX_HEADER + 4 : end;
    for (const char *q = p; q + 3 < stop && !hdr_end; q++)
        if (q[0] == '\r' && q[1] == '\n' && q[2] == '\r' && q[3] == '\n')
            hdr_end = q;
    if (!hdr_end) {
        if (avail > LSP_MAX_HEADER) {
            reply_error(s, NULL, E_PARSE, "header block longer than 8192 bytes without its blank line");
            *next = s->in_len; /* dropped; the next header starts anew */
            return -1;
        }
        return 0;
    }
    *next = (size_t)(hdr_end + 4 - s->in);
    if ((size_t)(hdr_end - p) > LSP_MAX_HEADER) {
        reply_error(s, NULL, E_PARSE, "header block longer than 8192 bytes");
        return -1;
    }
    long long length = -1;
    for (const char *line = p; line < hdr_end;) {
        const char *eol = line;
        while (eol < hdr_end && !(eol[0] == '\r' && eol[1] == '\n'))
            eol++;
        size_t n = (size_t)(eol - line);
        if (n >= 15 && !strncasecmp(line, "Content-Length:", 15)) {
            const char *q = line + 15;
            while (q < eol && (*q == ' ' || *q == '\t'))
                q++;
            long long x = 0;
            int digits = 0;
            while (q < eol && *q >= '0' && *q <= '9' && digits < 19) {
                x = x * 10 + (*q++ - '0');
                digits++;
            }
            while (q < eol && (*q == ' ' || *q == '\t'))
                q++;
            if (!digits || q != eol || length >= 0) {
                reply_error(s, NULL, E_PARSE, "bad Content-Length header");
                return -1;
            }
            length = x;
        } else if (!memchr(line, ':', n)) {
            reply_error(s, NULL, E_PARSE, "bad header line (expected 'Name: value')");
            return -1;
        }
        line = eol + 2;
    }
    if (length < 0) {
        reply_error(s, NULL, E_PARSE, "no Content-Length header");
        return -1;
    }
    if ((size_t)length > LSP_MAX_MESSAGE) {
        char m[120];
        snprintf(m, sizeof m, "message of %lld bytes: longer than the limit of %zu", length, LSP_MAX_MESSAGE);
        reply_error(s, NULL, E_PARSE, m);
        size_t have = s->in_len - *next;
        if ((size_t)length <= have) {
            *next += (size_t)length;
        } else {
            s->discard = (size_t)length - have;
            *next = s->in_len;
        }
        return -1;
    }
    if (s->in_len - *next < (size_t)length)
        return 0;
    f->body = *next;
    f->len = (size_t)length;
    *next += (size_t)length;
    return 1;
}

