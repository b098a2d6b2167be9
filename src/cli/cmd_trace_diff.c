/* `gisa trace-diff A B`: the first instruction where two commit logs (gisa
 * run --trace, text or JSON; or an RTL simulation's log in the same format)
 * disagree, with both records. A record is an instruction line and the
 * write lines under it (text), or one JSON line. Text records are compared
 * by their values per register and lane, so a log that groups lanes
 * differently (or lists them in another order) still agrees. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"

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

typedef struct record {
    const char *start, *end; /* the lines, newlines included */
    size_t line;             /* first line number */
    int present;
} record;

/* The next record of t (empty lines are skipped). */
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
    int lane, used;
    if (!q || sscanf(q, " %15[^ [=] %n", reg, &used) != 1)
        return 0;
    q += used;
    if (sscanf(q, "[%d] = %llx", &lane, &v) == 2) {
        if (*count >= MAX_LANE_VALUES)
            return 0;
        out[(*count)++] = (lane_value){"", lane, v};
        snprintf(out[*count - 1].reg, sizeof out->reg, "%s", reg);
        return 1;
    }
    if (sscanf(q, "= %llx", &v) != 1)
        return 0;
    const char *lanes = strstr(q, " lanes ");
    if (!lanes || sscanf(lanes, " lanes %llx", &mask) != 1) {
        if (*count >= MAX_LANE_VALUES)
            return 0;
        out[(*count)++] = (lane_value){"", -1, v};
        snprintf(out[*count - 1].reg, sizeof out->reg, "%s", reg);
        return 1;
    }
    int pred = reg[0] == 'P';
    for (int l = 0; l < 32; l++) {
        if (!(mask >> l & 1))
            continue;
        if (*count >= MAX_LANE_VALUES)
            return 0;
        out[(*count)++] = (lane_value){"", l, pred ? v >> l & 1 : v};
        snprintf(out[*count - 1].reg, sizeof out->reg, "%s", reg);
    }
    return 1;
}

/* A record's lane values, the last write of each register and lane kept. */
static int record_values(const record *r, lane_value *out)
{
    int n = 0;
    const char *p = r->start, *next;
    line_len(p, r->end, &next); /* the instruction line */
    for (p = next; p < r->end; p = next) {
        size_t len = line_len(p, r->end, &next);
        if (!parse_write(p, len, out, &n))
            return -1;
    }
    for (int i = 0; i < n; i++) /* a later write of the same lane wins */
        for (int k = i + 1; k < n; k++)
            if (out[k].lane == out[i].lane && !strcmp(out[k].reg, out[i].reg)) {
                out[i].reg[0] = 0;
                break;
            }
    return n;
}

static const lane_value *find_value(const lane_value *v, int n, const lane_value *key)
{
    for (int i = 0; i < n; i++)
        if (v[i].reg[0] && v[i].lane == key->lane && !strcmp(v[i].reg, key->reg))
            return &v[i];
    return NULL;
}

/* Text records: the same instruction line and the same value in every
 * register and lane written. The first difference goes to why[]. */
static int same_values(const record *a, const record *b, char *why, size_t cap)
{
    static lane_value va[MAX_LANE_VALUES], vb[MAX_LANE_VALUES];
    const char *na, *nb;
    size_t la = line_len(a->start, a->end, &na), lb = line_len(b->start, b->end, &nb);
    if (la != lb || memcmp(a->start, b->start, la)) {
        snprintf(why, cap, "the instruction lines differ at column %zu", first_diff(a->start, la, b->start, lb) + 1);
        return 0;
    }
    int ca = record_values(a, va), cb = record_values(b, vb);
    if (ca < 0 || cb < 0)
        return -1;
    for (int pass = 0; pass < 2; pass++) {
        const lane_value *x = pass ? vb : va, *y = pass ? va : vb;
        int cx = pass ? cb : ca, cy = pass ? ca : cb;
        for (int i = 0; i < cx; i++) {
            if (!x[i].reg[0])
                continue;
            const lane_value *o = find_value(y, cy, &x[i]);
            char lane[24] = "";
            if (x[i].lane >= 0)
                snprintf(lane, sizeof lane, " lane %d", x[i].lane);
            if (!o) {
                snprintf(why, cap, "%s%s: %s 0x%llx, %s no write", x[i].reg, lane, pass ? "B" : "A",
                         (unsigned long long)x[i].value, pass ? "A" : "B");
                return 0;
            }
            if (o->value != x[i].value) {
                snprintf(why, cap, "%s%s: A 0x%llx, B 0x%llx", x[i].reg, lane,
                         (unsigned long long)(pass ? o->value : x[i].value),
                         (unsigned long long)(pass ? x[i].value : o->value));
                return 0;
            }
        }
    }
    return 1;
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
    trace t[2] = {{cli_input_name(a.pos[0]), NULL, 0, 0, 1}, {cli_input_name(a.pos[1]), NULL, 0, 0, 1}};
    for (int i = 0; i < 2; i++)
        if ((r = cli_read_input(cmd, a.pos[i], &t[i].buf, &t[i].len)) != CLI_CONTINUE ||
            (r = refuse_nul(cmd, &t[i])) != CLI_CONTINUE) {
            free(t[0].buf);
            free(i ? t[1].buf : NULL);
            return r;
        }
    size_t count = 0;
    int differ = 0;
    for (;;) {
        record x = next_record(&t[0]), y = next_record(&t[1]);
        if (!x.present && !y.present)
            break;
        count++;
        char why[160] = "";
        if (x.present && y.present && x.start[0] != '{' && y.start[0] != '{') {
            int v = same_values(&x, &y, why, sizeof why);
            if (v == 1)
                continue;
            if (v < 0 && same(&x, &y)) /* lines it cannot read: compared as text */
                continue;
        } else if (x.present && y.present && same(&x, &y)) {
            continue;
        }
        printf("first difference at instruction record %zu%s%s:\n", count, why[0] ? ": " : "", why);
        show("-", &t[0], &x, &y);
        show("+", &t[1], &y, &x);
        differ = 1;
        break;
    }
    if (!differ)
        printf("traces agree: %zu instruction records\n", count);
    free(t[0].buf);
    free(t[1].buf);
    return differ ? EXIT_INPUT : EXIT_OK;
}

const cli_cmd cmd_trace_diff = {
    "trace-diff",
    "A B",
    "report the first instruction where two traces (gisa run --trace) differ",
    "Compares two commit logs record by record: an instruction line with its\n"
    "write lines, by the value of every register and lane written (however the\n"
    "lanes are grouped), or one JSON line as text. Prints the first pair that\n"
    "differs and where (register, lane, both values), A's lines as '-', B's as\n"
    "'+', with file:line; a line longer than 200 characters shows 200 of them,\n"
    "around where it differs.\n"
    "Exits 0 when they agree, 1 when they differ, 2 when a file cannot be read\n"
    "or is not text (a NUL byte).\n",
    NULL,
    0,
    2,
    run,
};
