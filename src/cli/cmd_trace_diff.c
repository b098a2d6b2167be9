/* `gisa trace-diff A B`: the first instruction where two commit logs (gisa
 * run --trace, text or JSON; or an RTL simulation's log in the same format)
 * disagree. A record is an instruction line and the write lines under it
 * (text), or one JSON object (on one line or several). Records are aligned
 * per warp (an RTL scheduler interleaves warps as it issues them) and
 * compared by value: warp, pc, exec mask, word, text (where both have
 * them) and the value of every register and lane written, so a log that
 * groups lanes differently, orders JSON keys or spells numbers otherwise
 * still agrees. Records it cannot read are compared as text. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "common/json.h"

typedef struct trace {
    const char *name;
    char *buf;
    size_t len, pos;
    size_t line;  /* number of the line at pos */
} trace;

/* The length of the line at p, without its newline and trailing \r or blanks. */
static size_t line_len(const char *p, const char *end, const char **next)
{
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    const char *e = nl ? nl : end;
    *next = nl ? nl + 1 : end;
    while (e > p && (e[-1] == '\r' || e[-1] == ' ' || e[-1] == '\t'))
        e--;
    return (size_t)(e - p);
}

/* The first column (0-based) where two lines differ; the shorter's length
 * when one is the other's start. */
static size_t first_diff(const char *p, size_t m, const char *q, size_t n)
{
    size_t i = 0;
    while (i < m && i < n && p[i] == q[i])
        i++;
    return i;
}

/* A write line of the text format: "wN" then three blanks. */
static int is_write_line(const char *p, size_t n)
{
    size_t i = 1;
    if (n < 5 || p[0] != 'w')
        return 0;
    while (i < n && p[i] >= '0' && p[i] <= '9')
        i++;
    return i > 1 && i + 3 <= n && !memcmp(p + i, "   ", 3);
}

/* Lanes of a warp: at most this many values in a JSON write. */
#define LANES_MAX 32

typedef struct record {
    const char *start, *end; /* the lines, newlines included */
    size_t line;             /* first line number */
    int present;
    int json;                /* a JSON object (else a text record) */
    int known;               /* its warp and pc could be read */
    unsigned warp;
    size_t pc;
    size_t seq;              /* its place in the trace */
} record;

/* The next record of t (empty lines are skipped): a JSON object, which may
 * span lines, or an instruction line and the write lines under it. */
static record next_record(trace *t)
{
    record r = {0};
    const char *end = t->buf + t->len, *p = t->buf + t->pos, *next;
    while (p < end && line_len(p, end, &next) == 0) {
        p = next;
        t->line++;
    }
    if (p >= end) {
        t->pos = t->len;
        return r;
    }
    r.present = 1;
    r.start = p;
    r.line = t->line;
    const char *q = p;
    while (q < end && (*q == ' ' || *q == '\t'))
        q++;
    if (q < end && *q == '{') {
        json_parser j;
        json_val v;
        json_init(&j, q, (size_t)(end - q));
        if (!json_value(&j, &v) && !json_skip(&j, &v) && line_len(j.p, end, &next) == 0) {
            for (const char *c = p; c < next; c++)
                t->line += *c == '\n';
            t->line += next > p && next[-1] != '\n'; /* the last line, without a newline */
            r.json = 1;
            r.end = next;
            t->pos = (size_t)(next - t->buf);
            return r;
        }
    }
    line_len(p, end, &next);
    p = next;
    t->line++;
    while (p < end) {
        size_t n = line_len(p, end, &next);
        if (!is_write_line(p, n))
            break;
        p = next;
        t->line++;
    }
    r.end = p;
    t->pos = (size_t)(p - t->buf);
    return r;
}

/* One written lane of a text record: "R5" lane 3 = 0x... (lane -1: uniform) */
typedef struct lane_value {
    char reg[16];
    int lane;
    uint64_t value;
} lane_value;

#define MAX_LANE_VALUES 1024

/* Adds the value of reg in lane (-1: uniform); a pair R[lo:hi] as its two
 * registers, the low word in R<lo>, so a log that writes pairs and one
 * that writes registers read the same. 0 when out is full. */
static int add_value(lane_value *out, int *count, const char *reg, int pair_lo, int lane, uint64_t v)
{
    for (int half = 0; half < (pair_lo >= 0 ? 2 : 1); half++) {
        if (*count >= MAX_LANE_VALUES)
            return 0;
        lane_value *x = &out[(*count)++];
        x->lane = lane;
        x->value = pair_lo >= 0 ? (uint32_t)(v >> (32 * half)) : v;
        if (pair_lo >= 0)
            snprintf(x->reg, sizeof x->reg, "%.2s%d", reg, pair_lo + half); /* R or UR */
        else
            snprintf(x->reg, sizeof x->reg, "%s", reg);
    }
    return 1;
}

/* Parses a write line into lane values; 0 when it is not one we know. */
static int parse_write(const char *p, size_t n, lane_value *out, int *count)
{
    char line[512], reg[16];
    if (n >= sizeof line)
        return 0;
    memcpy(line, p, n);
    line[n] = 0;
    const char *q = strstr(line, "   ");
    unsigned long long v, mask;
    int lane, used, lo = -1, hi;
    if (!q || sscanf(q, " %15[^ [=] %n", reg, &used) != 1)
        return 0;
    q += used;
    if (sscanf(q, "[%d:%d] %n", &lo, &hi, &used) == 2) { /* a pair, R[4:5] */
        if (lo < 0 || hi != lo + 1 || (strcmp(reg, "R") && strcmp(reg, "UR")))
            return 0;
        q += used;
    } else
        lo = -1;
    if (sscanf(q, "[%d] = %llx", &lane, &v) == 2)
        return add_value(out, count, reg, lo, lane, v);
    if (sscanf(q, "= %llx", &v) != 1)
        return 0;
    const char *lanes = strstr(q, " lanes ");
    if (!lanes || sscanf(lanes, " lanes %llx", &mask) != 1)
        return add_value(out, count, reg, lo, -1, v);
    int pred = reg[0] == 'P';
    for (int l = 0; l < 32; l++)
        if (mask >> l & 1 && !add_value(out, count, reg, lo, l, pred ? v >> l & 1 : v))
            return 0;
    return 1;
}

static const lane_value *find_value(const lane_value *v, int n, const lane_value *key)
{
    for (int i = 0; i < n; i++)
        if (v[i].reg[0] && v[i].lane == key->lane && !strcmp(v[i].reg, key->reg))
            return &v[i];
    return NULL;
}

/* What a record says, read by value. Absent fields are compared only when
 * both records have them (text: has_text; word: has_word; active). */
typedef struct info {
    unsigned warp;
    size_t pc;
    uint32_t exec, active;
    int has_active, has_word;
    uint64_t word[2]; /* low, high */
    const char *text; /* NULL when the record has none */
    size_t text_len;
    size_t text_col;  /* text records: where the text starts in the instruction line */
    char *text_buf;   /* a JSON text decoded (freed by info_free) */
    int nv;           /* lane values in v, -1: writes it cannot read */
} info;

static void info_free(info *in)
{
    free(in->text_buf);
    in->text_buf = NULL;
}

static int digit_of(char c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : 99;
}

/* A number at *pp: decimal (64 bits), or hex after 0x / 0X (128 bits), into
 * w[0] (low) and w[1]; *pp moves past it. 0 when there is none or it overflows. */
static int scan_wide(const char **pp, const char *end, uint64_t w[2])
{
    const char *p = *pp;
    unsigned base = 10;
    int nd = 0;
    w[0] = w[1] = 0;
    if (end - p > 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
        base = 16;
        p += 2;
    }
    for (; p < end && (unsigned)digit_of(*p) < base; p++, nd++) {
        unsigned d = (unsigned)digit_of(*p);
        if (base == 16) {
            if (w[1] >> 60)
                return 0;
            w[1] = w[1] << 4 | w[0] >> 60;
            w[0] = w[0] << 4 | d;
        } else {
            if (w[0] > (UINT64_MAX - d) / 10)
                return 0;
            w[0] = w[0] * 10 + d;
        }
    }
    if (!nd)
        return 0;
    *pp = p;
    return 1;
}

/* "wN PC exec MASK [engine] TEXT": the text format's instruction line. */
static int text_head(const char *p, size_t n, info *in)
{
    const char *e = p + n, *q = p + 1;
    uint64_t w[2];
    if (!n || p[0] != 'w' || !scan_wide(&q, e, w) || w[1] || w[0] > UINT32_MAX)
        return 0;
    in->warp = (unsigned)w[0];
    if (q >= e || *q++ != ' ' || !scan_wide(&q, e, w) || w[1] || w[0] > SIZE_MAX)
        return 0;
    in->pc = (size_t)w[0];
    if (e - q < 6 || memcmp(q, " exec ", 6))
        return 0;
    q += 6;
    if (!scan_wide(&q, e, w) || w[1] || w[0] > UINT32_MAX || (q < e && *q != ' '))
        return 0;
    in->exec = (uint32_t)w[0];
    while (q < e && *q == ' ')
        q++;
    const char *c = q < e && *q == '[' ? memchr(q, ']', (size_t)(e - q)) : NULL;
    if (c && c - q <= 16 && (c + 1 == e || c[1] == ' ')) /* --trace-engine's [doc] / [native] */
        for (q = c + 1; q < e && *q == ' ';)
            q++;
    in->text = q < e ? q : NULL;
    in->text_len = (size_t)(e - q);
    in->text_col = (size_t)(q - p);
    return 1;
}

/* The last write of each register and lane kept: earlier ones lose their name. */
static void latest_writes(lane_value *v, int n)
{
    for (int i = 0; i < n; i++)
        for (int k = i + 1; k < n; k++)
            if (v[k].lane == v[i].lane && !strcmp(v[k].reg, v[i].reg)) {
                v[i].reg[0] = 0;
                break;
            }
}

/* A JSON number, or a string holding one ("0x1F", "0x1f", "31"). */
static int json_wide(const json_val *v, uint64_t w[2])
{
    const char *p = v->s, *e = v->s + v->n;
    if (v->type == JSON_TRUE || v->type == JSON_FALSE) {
        w[0] = v->type == JSON_TRUE;
        w[1] = 0;
        return 1;
    }
    if ((v->type != JSON_NUMBER && v->type != JSON_STRING) || v->fraction || v->escaped)
        return 0;
    return scan_wide(&p, e, w) && p == e;
}

static int json_u64(const json_val *v, uint64_t max, uint64_t *out)
{
    uint64_t w[2];
    if (!json_wide(v, w) || w[1] || w[0] > max)
        return 0;
    *out = w[0];
    return 1;
}

/* One element of "writes": {"reg":"R5","lanes":"0x..","values":[..]} or
 * {"reg":"UR3","value":"0x.."}; its lane values appended to out. */
static int json_write(json_parser *j, lane_value *out, int *count)
{
    json_val k, v;
    int first = 1, r, has_mask = 0, nlanes = 0, uniform = 0;
    uint64_t mask = 0, vals[LANES_MAX], one = 0, present = 0;
    char reg[16] = "";
    while ((r = json_member(j, &first, &k)) == 1) {
        if (json_value(j, &v))
            return 0;
        if (k.n == 3 && !memcmp(k.s, "reg", 3)) {
            if (v.type != JSON_STRING || v.escaped || !v.n || v.n >= sizeof reg)
                return 0;
            memcpy(reg, v.s, v.n);
            reg[v.n] = 0;
        } else if (k.n == 5 && !memcmp(k.s, "lanes", 5)) {
            if (!json_u64(&v, UINT32_MAX, &mask))
                return 0;
            has_mask = 1;
        } else if (k.n == 5 && !memcmp(k.s, "value", 5)) {
            if (!json_u64(&v, UINT64_MAX, &one))
                return 0;
            uniform = 1;
        } else if (k.n == 6 && !memcmp(k.s, "values", 6) && v.type == JSON_ARRAY) {
            int efirst = 1, e;
            while ((e = json_element(j, &efirst)) == 1) {
                json_val x;
                if (nlanes >= LANES_MAX || json_value(j, &x))
                    return 0;
                if (x.type != JSON_NULL) {
                    if (!json_u64(&x, UINT64_MAX, &vals[nlanes]))
                        return 0;
                    present |= UINT64_C(1) << nlanes;
                }
                nlanes++;
            }
            if (e < 0)
                return 0;
        } else if (json_skip(j, &v)) {
            return 0;
        }
    }
    if (r < 0 || !reg[0] || (uniform && nlanes) || (!uniform && !nlanes))
        return 0;
    if (!has_mask)
        mask = present;
    for (int l = uniform ? -1 : 0; l < (uniform ? 0 : nlanes); l++) {
        if (l >= 0 && !(mask >> l & 1))
            continue;
        if ((l >= 0 && !(present >> l & 1)) || *count >= MAX_LANE_VALUES)
            return 0;
        out[*count] = (lane_value){"", l, l < 0 ? one : vals[l]};
        memcpy(out[(*count)++].reg, reg, sizeof reg);
    }
    return 1;
}

/* A JSON record by value: warp, pc, exec and writes it must have; active,
 * word and text where it has them; other members (engine, f32, ...) skipped.
 * out (may be NULL: the head only) gets the lane values. */
static int json_record(const record *rec, info *in, lane_value *out)
{
    json_parser j;
    json_val k, v;
    int first = 1, r, seen = 0;
    uint64_t x;
    json_init(&j, rec->start, (size_t)(rec->end - rec->start));
    if (json_value(&j, &v) || v.type != JSON_OBJECT)
        return 0;
    in->nv = 0;
    while ((r = json_member(&j, &first, &k)) == 1) {
        if (json_value(&j, &v))
            return 0;
#define KEY(lit) (k.n == sizeof lit - 1 && !memcmp(k.s, lit, k.n))
        if (KEY("warp") && json_u64(&v, UINT32_MAX, &x)) {
            in->warp = (unsigned)x;
            seen |= 1;
        } else if (KEY("pc") && json_u64(&v, SIZE_MAX, &x)) {
            in->pc = (size_t)x;
            seen |= 2;
        } else if (KEY("exec") && json_u64(&v, UINT32_MAX, &x)) {
            in->exec = (uint32_t)x;
            seen |= 4;
        } else if (KEY("active") && json_u64(&v, UINT32_MAX, &x)) {
            in->active = (uint32_t)x;
            in->has_active = 1;
        } else if (KEY("word") && json_wide(&v, in->word)) {
            in->has_word = 1;
        } else if (KEY("text") && v.type == JSON_STRING) {
            if (out && v.n) {
                free(in->text_buf);
                if (!(in->text_buf = malloc(v.n + 1)) || json_unescape(&v, in->text_buf, v.n + 1) == (size_t)-1)
                    return 0;
                in->text = in->text_buf;
                in->text_len = strlen(in->text_buf);
            }
        } else if (KEY("writes") && v.type == JSON_ARRAY) {
            int efirst = 1, e;
            json_val w;
            while ((e = json_element(&j, &efirst)) == 1)
                if (json_value(&j, &w) || w.type != JSON_OBJECT || (out ? !json_write(&j, out, &in->nv) : json_skip(&j, &w)))
                    return 0;
            if (e < 0)
                return 0;
            seen |= 8;
        } else if (KEY("warp") || KEY("pc") || KEY("exec") || KEY("active") || KEY("word") || KEY("writes") ||
                   json_skip(&j, &v)) {
            return 0;
        }
#undef KEY
    }
    if (r < 0 || seen != 15)
        return 0;
    if (out)
        latest_writes(out, in->nv);
    return 1;
}

/* A record's warp and pc (and for text, the rest of its head); 0 when it
 * has none that can be read. With out, its lane values too (nv -1 when its
 * writes cannot be read). */
static int read_record(const record *r, info *in, lane_value *out)
{
    memset(in, 0, sizeof *in);
    if (r->json)
        return json_record(r, in, out);
    const char *next;
    if (!text_head(r->start, line_len(r->start, r->end, &next), in))
        return 0;
    if (out) {
        for (const char *p = next; p < r->end && in->nv >= 0; p = next) {
            size_t len = line_len(p, r->end, &next);
            if (!parse_write(p, len, out, &in->nv))
                in->nv = -1;
        }
        if (in->nv >= 0)
            latest_writes(out, in->nv);
    }
    return 1;
}

/* One register and lane where the records differ (lane -1: uniform). */
typedef struct lane_diff {
    char reg[16];
    int lane;
    int has[2];
    uint64_t val[2];
} lane_diff;

typedef struct diff {
    char why[200];
    lane_diff *lanes; /* MAX_LANE_VALUES * 2 */
    int nlanes;
} diff;

/* Compares two records by value. 1: they agree; 0: they differ (why and the
 * lanes in d); -1: one cannot be read (the caller compares the lines). */
static int compare(const record *ra, const record *rb, int ignore_text, diff *d)
{
    static lane_value va[MAX_LANE_VALUES], vb[MAX_LANE_VALUES];
    info a = {0}, b = {0};
    int res = -1;
    d->nlanes = 0;
    d->why[0] = 0;
    if (!read_record(ra, &a, va) || !read_record(rb, &b, vb) || a.nv < 0 || b.nv < 0)
        goto done;
    res = 0;
    if (a.warp != b.warp) {
        snprintf(d->why, sizeof d->why, "the warps differ: A %u, B %u", a.warp, b.warp);
    } else if (a.pc != b.pc) {
        snprintf(d->why, sizeof d->why, "the pcs differ: A %zu, B %zu", a.pc, b.pc);
    } else if (a.exec != b.exec) {
        snprintf(d->why, sizeof d->why, "the exec masks differ: A 0x%08x, B 0x%08x", a.exec, b.exec);
    } else if (a.has_active && b.has_active && a.active != b.active) {
        snprintf(d->why, sizeof d->why, "the active masks differ: A 0x%08x, B 0x%08x", a.active, b.active);
    } else if (a.has_word && b.has_word && (a.word[0] != b.word[0] || a.word[1] != b.word[1])) {
        snprintf(d->why, sizeof d->why, "the words differ: A 0x%016llx%016llx, B 0x%016llx%016llx",
                 (unsigned long long)a.word[1], (unsigned long long)a.word[0], (unsigned long long)b.word[1],
                 (unsigned long long)b.word[0]);
    } else if (!ignore_text && a.text && b.text &&
               (a.text_len != b.text_len || memcmp(a.text, b.text, a.text_len))) {
        size_t col = first_diff(a.text, a.text_len, b.text, b.text_len);
        if (ra->json || rb->json)
            snprintf(d->why, sizeof d->why, "the instruction texts differ at column %zu", col + 1);
        else
            snprintf(d->why, sizeof d->why, "the instruction lines differ at column %zu", a.text_col + col + 1);
    } else {
        res = 1;
    }
    for (int pass = 0; pass < 2 && res == 1; pass++) {
        const lane_value *x = pass ? vb : va, *y = pass ? va : vb;
        int cx = pass ? b.nv : a.nv, cy = pass ? a.nv : b.nv;
        for (int i = 0; i < cx; i++) {
            if (!x[i].reg[0])
                continue;
            const lane_value *o = find_value(y, cy, &x[i]);
            if ((o && o->value == x[i].value) || (pass && o))
                continue;
            lane_diff *l = &d->lanes[d->nlanes++];
            memcpy(l->reg, x[i].reg, sizeof l->reg);
            l->lane = x[i].lane;
            l->has[pass] = 1;
            l->val[pass] = x[i].value;
            l->has[!pass] = o != NULL;
            l->val[!pass] = o ? o->value : 0;
        }
    }
    if (d->nlanes) {
        const lane_diff *l = &d->lanes[0];
        char lane[24] = "";
        res = 0;
        if (l->lane >= 0)
            snprintf(lane, sizeof lane, " lane %d", l->lane);
        if (l->has[0] && l->has[1])
            snprintf(d->why, sizeof d->why, "%s%s: A 0x%llx, B 0x%llx", l->reg, lane, (unsigned long long)l->val[0],
                     (unsigned long long)l->val[1]);
        else
            snprintf(d->why, sizeof d->why, "%s%s: %s 0x%llx, %s no write", l->reg, lane, l->has[0] ? "A" : "B",
                     (unsigned long long)l->val[!l->has[0]], l->has[0] ? "B" : "A");
    }
done:
    info_free(&a);
    info_free(&b);
    return res;
}

/* Records are equal when their lines are, up to trailing blanks and \r. */
static int same(const record *a, const record *b)
{
    const char *p = a->start, *q = b->start, *np, *nq;
    while (p < a->end && q < b->end) {
        size_t m = line_len(p, a->end, &np), n = line_len(q, b->end, &nq);
        if (m != n || memcmp(p, q, m))
            return 0;
        p = np;
        q = nq;
    }
    return p >= a->end && q >= b->end;
}

/* Columns of a line echoed: a 50 MB line was printed whole. A longer one
 * shows this many around the first column where it differs from the other
 * trace's line, "..." where it is cut, and its length. */
#define SHOW_COLS 200

/* The record's lines; `other` (may be absent) is the record it is compared
 * with, whose lines say where each long line is worth showing. */
static void show(const char *mark, const trace *t, const record *r, const record *other)
{
    if (!r->present) {
        printf("%s %s: (ends here)\n", mark, t->name);
        return;
    }
    size_t line = r->line;
    const char *q = other->present ? other->start : NULL, *qnext;
    for (const char *p = r->start, *next; p < r->end; p = next, line++) {
        size_t n = line_len(p, r->end, &next), m = 0;
        if (q && q < other->end) {
            m = line_len(q, other->end, &qnext);
        } else {
            q = NULL;
        }
        if (n <= SHOW_COLS) {
            printf("%s %s:%zu: %.*s\n", mark, t->name, line, (int)n, p);
        } else {
            size_t d = q ? first_diff(p, n, q, m) : 0, from = d > SHOW_COLS / 2 ? d - SHOW_COLS / 2 : 0;
            if (from + SHOW_COLS > n)
                from = n - SHOW_COLS;
            printf("%s %s:%zu: %s%.*s%s (a line of %zu characters, shown from column %zu)\n", mark, t->name, line,
                   from ? "..." : "", SHOW_COLS, p + from, from + SHOW_COLS < n ? "..." : "", n, from + 1);
        }
        q = q ? qnext : NULL;
    }
}


/* "IMAD R5, R1, R3, R2": the instruction of a record, for the compact
 * report (its word when it has no text; the text cut at SHOW_LABEL). */
#define SHOW_LABEL 80
static void label_of(const info *in, char *buf, size_t cap)
{
    if (in->text)
        snprintf(buf, cap, "%.*s%s", (int)(in->text_len < SHOW_LABEL ? in->text_len : SHOW_LABEL), in->text,
                 in->text_len > SHOW_LABEL ? "..." : "");
    else if (in->has_word)
        snprintf(buf, cap, "word 0x%016llx%016llx", (unsigned long long)in->word[1], (unsigned long long)in->word[0]);
    else
        snprintf(buf, cap, "(no text)");
}

/* Groups of lanes shown per record. */
#define SHOW_GROUPS 8

/* One line per group of lanes that differ alike (same register, same two
 * values): the instruction, the register, the lanes as a mask and a count,
 * A's value and B's. */
static void show_lanes(const diff *d, const record *r)
{
    static unsigned char done[2 * MAX_LANE_VALUES];
    static lane_value scratch[MAX_LANE_VALUES];
    char text[SHOW_LABEL + 64], label[SHOW_LABEL + 96];
    info in;
    int groups = 0;
    if (!read_record(r, &in, scratch)) {
        info_free(&in);
        return;
    }
    label_of(&in, text, sizeof text);
    snprintf(label, sizeof label, "pc %zu %s", in.pc, text);
    info_free(&in);
    memset(done, 0, (size_t)d->nlanes);
    for (int i = 0; i < d->nlanes; i++) {
        const lane_diff *l = &d->lanes[i];
        uint32_t mask = 0;
        int count = 0;
        if (done[i])
            continue;
        if (++groups > SHOW_GROUPS) {
            int left = 0;
            for (int k = i; k < d->nlanes; k++)
                left += !done[k];
            printf("  %s: ... and %d more lanes that differ (--verbose: the records whole)\n", label, left);
            break;
        }
        for (int k = i; k < d->nlanes && l->lane >= 0; k++) {
            const lane_diff *o = &d->lanes[k];
            if (!done[k] && o->lane >= 0 && !strcmp(o->reg, l->reg) && o->has[0] == l->has[0] &&
                o->has[1] == l->has[1] && o->val[0] == l->val[0] && o->val[1] == l->val[1]) {
                mask |= UINT32_C(1) << o->lane;
                count++;
                done[k] = 1;
            }
        }
        printf("  %s: %s", label, l->reg);
        if (l->lane >= 0)
            printf(" lanes 0x%08x (%d lane%s)", mask, count, count == 1 ? "" : "s");
        for (int s = 0; s < 2; s++)
            if (l->has[s])
                printf("%s %s 0x%llx", s ? "," : ":", s ? "B" : "A", (unsigned long long)l->val[s]);
            else
                printf("%s %s no write", s ? "," : ":", s ? "B" : "A");
        printf("\n");
    }
}

/* A record's instruction only: its first line (text), or its fields (JSON). */
static void show_head(const char *mark, const trace *t, const record *r, const record *other)
{
    const char *next;
    if (!r->present || !r->json) {
        record x = *r, y = *other;
        if (x.present)
            line_len(x.start, x.end, &next), x.end = next;
        if (y.present)
            line_len(y.start, y.end, &next), y.end = next;
        show(mark, t, &x, &y);
        return;
    }
    char label[SHOW_LABEL + 64];
    info in;
    static lane_value scratch[MAX_LANE_VALUES];
    if (!read_record(r, &in, scratch)) {
        info_free(&in);
        show(mark, t, r, other);
        return;
    }
    label_of(&in, label, sizeof label);
    printf("%s %s:%zu: w%u %zu exec 0x%08x %s\n", mark, t->name, r->line, in.warp, in.pc, in.exec, label);
    info_free(&in);
}

/* A NUL byte would cut the lines where they are compared and shown: a
 * trace is text, and the byte is an error at its place. */
static int refuse_nul(const cli_cmd *cmd, const trace *t)
{
    const char *z = memchr(t->buf, 0, t->len);
    if (!z)
        return CLI_CONTINUE;
    size_t line = 1;
    const char *bol = t->buf;
    for (const char *p = t->buf; p < z; p++)
        if (*p == '\n') {
            line++;
            bol = p + 1;
        }
    cli_error(cmd, "%s:%zu:%zu: a NUL byte: a trace is text (gisa run --trace)", t->name, line,
              (size_t)(z - bol) + 1);
    return EXIT_USAGE;
}

typedef struct records {
    record *r;
    size_t n, cap;
} records;

/* Every record of t, with its warp and pc where they can be read (*aligned
 * cleared when one cannot: the traces are then compared in file order). */
static int load(const cli_cmd *cmd, trace *t, records *rs, int *aligned)
{
    for (;;) {
        record x = next_record(t);
        info in;
        if (!x.present)
            return CLI_CONTINUE;
        if (rs->n == rs->cap) {
            size_t cap = rs->cap ? rs->cap * 2 : 256;
            record *p = realloc(rs->r, cap * sizeof *p);
            if (!p) {
                cli_error(cmd, "%s: out of memory for %zu records", t->name, rs->n);
                return EXIT_USAGE;
            }
            rs->r = p;
            rs->cap = cap;
        }
        x.known = read_record(&x, &in, NULL);
        info_free(&in);
        x.warp = in.warp;
        x.pc = in.pc;
        x.seq = rs->n;
        *aligned &= x.known;
        rs->r[rs->n++] = x;
    }
}

/* Warp, then place in the trace: each warp's records in program order. */
static int by_warp(const void *p, const void *q)
{
    const record *a = p, *b = q;
    if (a->warp != b->warp)
        return a->warp < b->warp ? -1 : 1;
    return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* Warps whose first difference is shown; the others are counted. */
#define SHOW_WARPS 8

enum { O_IGNORE_TEXT, O_VERBOSE };
static const cli_opt opts[] = {
    {"ignore-text", 0, NULL, "compare pc, word, exec mask and writes, not the instruction text"},
    {"verbose", 0, NULL, "show each differing record whole (every write line), not only its instruction"},
};

static int run(const cli_cmd *cmd, int argc, char **argv)
{
    cli_args a;
    int r = cli_parse(cmd, argc, argv, &a);
    if (r != CLI_CONTINUE)
        return r;
    if (a.npos != 2)
        return cli_usage_error(cmd, "needs two trace files (gisa run --trace=FILE)");
    if (!strcmp(cli_input_name(a.pos[0]), "<stdin>") && !strcmp(cli_input_name(a.pos[1]), "<stdin>"))
        return cli_usage_error(cmd, "standard input ('-') can be one of the traces, not both");
    int ignore_text = a.val[O_IGNORE_TEXT] != NULL, verbose = a.val[O_VERBOSE] != NULL, aligned = 1;
    trace t[2] = {{cli_input_name(a.pos[0]), NULL, 0, 0, 1}, {cli_input_name(a.pos[1]), NULL, 0, 0, 1}};
    records rs[2] = {{0}};
    for (int i = 0; i < 2 && r == CLI_CONTINUE; i++)
        if ((r = cli_read_input(cmd, a.pos[i], &t[i].buf, &t[i].len)) == CLI_CONTINUE &&
            (r = refuse_nul(cmd, &t[i])) == CLI_CONTINUE)
            r = load(cmd, &t[i], &rs[i], &aligned);
    if (r != CLI_CONTINUE)
        goto done;
    for (int i = 0; i < 2; i++) {
        for (size_t k = 0; k < rs[i].n && !aligned; k++)
            rs[i].r[k].warp = 0; /* one sequence, in file order */
        if (rs[i].n)
            qsort(rs[i].r, rs[i].n, sizeof *rs[i].r, by_warp);
    }
    static lane_diff lanes[2 * MAX_LANE_VALUES];
    diff d = {"", lanes, 0};
    size_t count = 0, i = 0, k = 0, warps = 0;
    const record none = {0};
    while (i < rs[0].n || k < rs[1].n) {
        unsigned w = i < rs[0].n && (k >= rs[1].n || rs[0].r[i].warp <= rs[1].r[k].warp) ? rs[0].r[i].warp
                                                                                          : rs[1].r[k].warp;
        int found = 0;
        for (size_t idx = 1;; idx++) {
            const record *x = i < rs[0].n && rs[0].r[i].warp == w ? &rs[0].r[i++] : &none;
            const record *y = k < rs[1].n && rs[1].r[k].warp == w ? &rs[1].r[k++] : &none;
            if (!x->present && !y->present)
                break;
            count++;
            if (found)
                continue;
            int v = x->present && y->present ? compare(x, y, ignore_text, &d) : 0;
            if (v < 0 && same(x, y)) /* records it cannot read: compared as text */
                v = 1;
            if (v == 1)
                continue;
            found = 1;
            if (++warps > SHOW_WARPS)
                continue;
            if (!x->present || !y->present)
                d.why[0] = 0, d.nlanes = 0;
            if (aligned)
                printf("first difference in warp %u, its instruction record %zu (pc %zu)%s%s:\n", w, idx,
                       x->present ? x->pc : y->pc, d.why[0] ? ": " : "", d.why);
            else
                printf("first difference at instruction record %zu%s%s:\n", count, d.why[0] ? ": " : "", d.why);
            if (d.nlanes)
                show_lanes(&d, x);
            if (verbose || v < 0) {
                show("-", &t[0], x, y);
                show("+", &t[1], y, x);
            } else {
                show_head("-", &t[0], x, y);
                show_head("+", &t[1], y, x);
            }
        }
    }
    if (warps > SHOW_WARPS)
        printf("... and %zu more warps differ\n", warps - SHOW_WARPS);
    if (!warps)
        printf("traces agree: %zu instruction records\n", count);
    r = warps ? EXIT_INPUT : EXIT_OK;
done:
    for (int n = 0; n < 2; n++) {
        free(t[n].buf);
        free(rs[n].r);
    }
    return r;
}

const cli_cmd cmd_trace_diff = {
    "trace-diff",
    "A B",
    "report the first instruction where two traces (gisa run --trace) differ",
    "Compares two commit logs (text or JSON) per warp: each warp's records in\n"
    "their order, however the warps interleave. Records are compared by value:\n"
    "warp, pc, exec mask, and word, active mask and instruction text where both\n"
    "have them (an engine tag of --trace-engine never counts), and the value of\n"
    "every register and lane written (however lanes are grouped; JSON key order,\n"
    "spacing and number spelling are free). For the first differing record of\n"
    "each warp it prints the warp, the record's index within the warp and its\n"
    "pc, one line per group of lanes that differ alike (register, lanes as a\n"
    "mask and a count, A's and B's values), and both instruction lines, A's as\n"
    "'-', B's as '+', with file:line (--verbose: every line of the record); a\n"
    "line longer than 200 characters shows 200 of them, around where it\n"
    "differs. Records it cannot read are compared as text, in file order.\n"
    "Exits 0 when they agree, 1 when they differ, 2 when a file cannot be read\n"
    "or is not text (a NUL byte).\n",
    opts,
    sizeof opts / sizeof opts[0],
    2,
    run,
};
