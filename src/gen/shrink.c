/* gisa_shrink: Zeller and Hildebrandt's ddmin over the lines of a program.
 * The lines are cut into n chunks; a chunk alone that is still
 * interesting replaces everything, else the rest without one chunk that
 * is still interesting does; else n doubles, up to one line per chunk.
 * When no single line can go, the result is 1-minimal. */
#include <stdlib.h>
#include <string.h>

#include "common/diag.h"
#include "common/strbuf.h"
#include "gisa.h"
#include "shrink.h"

typedef struct shrinker {
    const char *text;
    const size_t *start, *len; /* line i of the text */
    gisa_shrink_test test;
    void *user;
    size_t tests;
    strbuf buf;
    gisa_status stopped; /* what the test returned other than GISA_OK */
    int oom;
} shrinker;

/* Runs the test on the lines idx[0..n) (a dd_try_fn). */
static int try_lines(void *ctx, const size_t *idx, size_t n)
{
    shrinker *s = ctx;
    s->buf.len = 0;
    if (s->buf.s)
        s->buf.s[0] = 0;
    for (size_t i = 0; i < n; i++) {
        sb_putn(&s->buf, s->text + s->start[idx[i]], s->len[idx[i]]);
        if (s->text[s->start[idx[i]] + s->len[idx[i]] - 1] != '\n')
            sb_putc(&s->buf, '\n');
    }
    if (s->buf.failed) {
        s->oom = 1;
        return -1;
    }
    s->tests++;
    bool interesting = false;
    gisa_status st = s->test(s->user, s->buf.s ? s->buf.s : "", s->buf.len, &interesting);
    if (st != GISA_OK) {
        s->stopped = st;
        return -1;
    }
    return interesting;
}

int dd_min(dd_try_fn try, void *ctx, size_t *cur, size_t *n, size_t *cand)
{
    size_t parts = 2;
    while (*n >= 2) {
        size_t len = *n, chunk = (len + parts - 1) / parts, reduced = 0;
        /* each chunk alone */
        for (size_t c = 0; c * chunk < len && !reduced && parts > 2; c++) {
            size_t lo = c * chunk, hi = lo + chunk < len ? lo + chunk : len;
            int r = try(ctx, cur + lo, hi - lo);
            if (r < 0)
                return -1;
            if (r) {
                memmove(cur, cur + lo, (hi - lo) * sizeof *cur);
                *n = hi - lo;
                parts = 2;
                reduced = 1;
            }
        }
        /* everything but one chunk */
        for (size_t c = 0; c * chunk < len && !reduced; c++) {
            size_t lo = c * chunk, hi = lo + chunk < len ? lo + chunk : len, m = 0;
            for (size_t i = 0; i < len; i++)
                if (i < lo || i >= hi)
                    cand[m++] = cur[i];
            int r = try(ctx, cand, m);
            if (r < 0)
                return -1;
            if (r) {
                memcpy(cur, cand, m * sizeof *cur);
                *n = m;
                parts = parts > 2 ? parts - 1 : 2;
                reduced = 1;
            }
        }
        if (!reduced) {
            if (parts >= len)
                return 0; /* every single item was tried: 1-minimal */
            parts = parts * 2 < len ? parts * 2 : len;
        }
    }
    return 0;
}

gisa_status gisa_shrink(const char *text, size_t len, gisa_shrink_test test, void *user, char **out, size_t *out_len,
                        size_t *ntests, gisa_diags *diags)
{
    if (!text || !test || !out)
        return GISA_ERR_USAGE;
    *out = NULL;
    size_t nlines = 0;
    for (size_t i = 0; i < len; i++)
        nlines += text[i] == '\n' || i + 1 == len;
    size_t *start = malloc((nlines + 1) * sizeof *start), *llen = malloc((nlines + 1) * sizeof *llen);
    size_t *cur = malloc((nlines + 1) * sizeof *cur), *cand = malloc((nlines + 1) * sizeof *cand);
    shrinker s = {.text = text, .start = start, .len = llen, .test = test, .user = user};
    sb_init(&s.buf);
    gisa_status st = GISA_OK;
    if (!start || !llen || !cur || !cand) {
        st = GISA_ERR_NOMEM;
        goto done;
    }
    /* the lines, each with its newline (the last one gets one if it has none) */
    size_t n = 0, at = 0;
    for (size_t i = 0; i < len; i++)
        if (text[i] == '\n' || i + 1 == len) {
            start[n] = at;
            llen[n] = i + 1 - at;
            cur[n] = n;
            n++;
            at = i + 1;
        }
    int r = try_lines(&s, cur, n);
    if (r == 0) {
        srcloc where = {"", 0, 0, 0, NULL, 0, NULL};
        diag_add(diags, GISA_ERROR, &where, "the test does not fail on the original program: nothing to shrink");
        st = GISA_ERR_INPUT;
        goto done;
    }
    if (r > 0)
        dd_min(try_lines, &s, cur, &n, cand);
    strbuf res;
    sb_init(&res);
    for (size_t i = 0; i < n; i++) {
        sb_putn(&res, text + start[cur[i]], llen[cur[i]]);
        if (text[start[cur[i]] + llen[cur[i]] - 1] != '\n')
            sb_putc(&res, '\n');
    }
    st = shrink_result(&res, s.oom, s.stopped, out, out_len);
done:
    if (ntests)
        *ntests = s.tests;
    sb_free(&s.buf);
    free(start);
    free(llen);
    free(cur);
    free(cand);
    return st;
}

gisa_status shrink_result(strbuf *res, int oom, gisa_status stopped, char **out, size_t *out_len)
{
    if (oom || res->failed) {
        sb_free(res);
        return GISA_ERR_NOMEM;
    }
    if (out_len)
        *out_len = res->len;
    *out = sb_take(res);
    return *out ? stopped : GISA_ERR_NOMEM;
}
