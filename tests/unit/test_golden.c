/* Golden listing tests/golden/gisa128.golden: `<32 hex digits>  <canonical
 * text>` per line, at least one line per opcode of the model. Each text must
 * assemble to its hex, and the hex must disassemble to the text. Each line
 * is also decoded independently of the model: the optype (bits 0..7, the
 * numbering of isa/gisa128/types.isa, copied by hand below), the stype
 * (bits 8..11) from the kinds of the written source operands, Rd/URd
 * (16..23 / 16..21), Ra (24..31), the guard (12..15) and the scheduling
 * controls (112..125) are recomputed from the text and compared with the hex. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "testlib.h"

/* optype numbers (types.isa) and the operand roles of each mnemonic:
 * d = Rd, D = URd, a = Ra, b/c = SrcB/SrcC (give stype letters), r = Rc
 * (a register that counts as the stype's last R), x = a trailing immediate
 * that is not a source (UImm5Sca, UImm8Lut). Predicates and PR are skipped. */
typedef struct mnem {
    const char *name;
    unsigned optype;
    const char *roles;
} mnem;

static const mnem table[] = {
    {"FADD", 0x10, "dab"},   {"FMUL", 0x11, "dab"},    {"FFMA", 0x12, "dabc"},   {"FMNMX", 0x13, "dab"},
    {"FSETP", 0x14, "ab"},   {"FSET", 0x15, "dab"},    {"FSEL", 0x16, "dab"},    {"FCHK", 0x17, "ab"},
    {"DADD", 0x20, "dab"},   {"DMUL", 0x21, "dab"},    {"DFMA", 0x22, "dabc"},   {"DMNMX", 0x23, "dab"},
    {"DSETP", 0x24, "ab"},   {"HADD2", 0x30, "dab"},   {"HMUL2", 0x31, "dab"},   {"HFMA2", 0x32, "dabc"},
    {"HMNMX2", 0x33, "dab"}, {"HSETP2", 0x34, "ab"},   {"HSET2", 0x35, "dab"},   {"IADD", 0x40, "dab"},
    {"IMAD", 0x41, "dabc"},  {"IMAD.WIDE", 0x42, "dabc"}, {"IDP.2A", 0x43, "dabc"}, {"IDP.4A", 0x44, "dabc"},
    {"IMUL", 0x45, "dab"},   {"LEA", 0x46, "dabrx"},   {"IABS", 0x47, "db"},     {"IMNMX", 0x48, "dab"},
    {"P2R", 0x49, "dab"},    {"R2P", 0x4a, "ab"},      {"ISETP", 0x4b, "ab"},    {"ISET", 0x4c, "dab"},
    {"SEL", 0x4d, "dab"},    {"LOP3", 0x4e, "dabrx"},  {"PLOP3", 0x4f, "x"},     {"SHF", 0x50, "dabc"},
    {"MOV", 0x51, "db"},     {"PRMT", 0x52, "dabc"},   {"I2I", 0x53, "db"},      {"I2IP", 0x54, "dabr"},
    {"R2UR", 0x55, "Db"},    {"SETGPR", 0x56, "ia"},   {"GETGPR", 0x57, "di"},
};

/* SType (types.isa): R U I C RR RU RI RC RRR RRI RIR RRU RUR RRC RCR X */
static int stype_number(const char *s)
{
    static const char *const names[] = {"R", "U", "I", "C", "RR", "RU", "RI", "RC",
                                        "RRR", "RRI", "RIR", "RRU", "RUR", "RRC", "RCR", "X"};
    for (int i = 0; i < 16; i++)
        if (!strcmp(names[i], s))
            return i;
    return -1;
}

static uint64_t bits(const uint64_t w[2], int off, int width)
{
    uint64_t v = off >= 64 ? w[1] >> (off - 64) : w[0] >> off;
    return v & ((UINT64_C(1) << width) - 1);
}

typedef struct opnd {
    char kind; /* R U I C P(redicate) p(PR) X(indexed) */
    long reg;  /* register number (low register of a pair; RZ 255, URZ 63, PT 7) */
} opnd;

static opnd classify(const char *s)
{
    opnd o = {'I', -1};
    while (*s == '-' || *s == '~' || *s == '!' || *s == '|')
        s++;
    if (!strncmp(s, "c[", 2))
        o.kind = 'C';
    else if (!strcmp(s, "PR"))
        o.kind = 'p';
    else if (!strncmp(s, "R[UR", 4) || !strncmp(s, "R[URZ", 5))
        o.kind = 'X';
    else if (!strncmp(s, "URZ", 3))
        o.kind = 'U', o.reg = 63;
    else if (!strncmp(s, "RZ", 2))
        o.kind = 'R', o.reg = 255;
    else if (!strncmp(s, "UR[", 3) || (!strncmp(s, "UR", 2) && isdigit((unsigned char)s[2])))
        o.kind = 'U', o.reg = strtol(s + (s[2] == '[' ? 3 : 2), NULL, 10);
    else if (!strncmp(s, "R[", 2) || (s[0] == 'R' && isdigit((unsigned char)s[1])))
        o.kind = 'R', o.reg = strtol(s + 1 + (s[1] == '['), NULL, 10);
    else if (!strcmp(s, "PT") || !strcmp(s, "UPT") || (s[0] == 'P' && isdigit((unsigned char)s[1])) ||
             (!strncmp(s, "UP", 2) && isdigit((unsigned char)s[2])))
        o.kind = 'P', o.reg = s[0] == 'U' ? (s[2] == 'T' ? 7 : s[2] - '0') : (s[1] == 'T' ? 7 : s[1] - '0');
    return o;
}

/* Recomputes the hand-decodable fields of `text` and compares them with w.
 * Returns the number of mismatches (each reported). */
static int check_by_hand(const char *text, const uint64_t w[2])
{
    char buf[600];
    snprintf(buf, sizeof buf, "%s", text);
    int bad = 0;
    char *p = buf;
    unsigned pg = 7, pgnot = 0;
    if (*p == '@') {
        pgnot = p[1] == '!';
        char *q = p + 1 + pgnot;
        pg = q[1] == 'T' ? 7 : (unsigned)(q[1] - '0');
        p = strchr(p, ' ') + 1;
    }
    unsigned long ctl[3] = {0, 0, 0};
    static const char *const cn[3] = {" $sched=", " $req=", " $wsb="};
    for (int k = 0; k < 3; k++) {
        char *c = strstr(p, cn[k]);
        if (c)
            ctl[k] = strtoul(c + strlen(cn[k]), NULL, 0);
    }
    char *dollar = strchr(p, '$');
    if (dollar)
        dollar[-1] = 0;
    char *sp = strchr(p, ' ');
    if (!sp)
        return 1;
    *sp = 0;
    const mnem *m = NULL; /* longest table name that is a dotted prefix of the mnemonic */
    for (size_t i = 0; i < sizeof table / sizeof *table; i++) {
        size_t n = strlen(table[i].name);
        if (!strncmp(p, table[i].name, n) && (p[n] == 0 || p[n] == '.') && (!m || n > strlen(m->name)))
            m = &table[i];
    }
    if (!m) {
        fprintf(stderr, "  unknown mnemonic in golden line: %s\n", text);
        return 1;
    }
    int half = p[0] == 'H'; /* F16x2 immediates are two numbers */
    opnd ops[16];
    int n = 0;
    char *save = NULL;
    for (char *t = strtok_r(sp + 1, ",", &save); t && n < 16; t = strtok_r(NULL, ",", &save)) {
        while (*t == ' ')
            t++;
        opnd o = classify(t);
        if (o.kind == 'P' || o.kind == 'p')
            continue;
        if (half && o.kind == 'I' && n && ops[n - 1].kind == 'I')
            continue; /* the low half of an F16x2 immediate */
        ops[n++] = o;
    }
    /* match roles: 'r' may be omitted (LEA .LO and .HI.X.SX32) */
    char st[8] = "";
    int k = 0;
    long rd = -1, ra = -1, urd = -1;
    for (const char *r = m->roles; *r; r++) {
        if (*r == 'r' && (k >= n || ops[k].kind != 'R' || (r[1] == 'x' && k + 1 >= n))) {
            strcat(st, "R"); /* LEA without Rc still encodes RRR/RIR/RCR/RUR */
            continue;
        }
        if (k >= n) {
            fprintf(stderr, "  golden line: too few operands for roles %s: %s\n", m->roles, text);
            return 1;
        }
        opnd o = ops[k++];
        switch (*r) {
        case 'd': rd = o.reg; break;
        case 'D': urd = o.reg; break;
        case 'a':
            ra = o.reg;
            strcat(st, "R");
            break;
        case 'b':
        case 'c': {
            char l[2] = {o.kind == 'R' ? 'R' : o.kind == 'U' ? 'U' : o.kind == 'C' ? 'C' : 'I', 0};
            strcat(st, l);
            break;
        }
        case 'r': strcat(st, "R"); break;
        case 'i': strcat(st, "U"); break; /* R[URb+SImm9]: stype U */
        }
    }
    if (!strcmp(m->name, "PLOP3")) /* stype X (pc is a P) or U (upc is a UP) */
        strcpy(st, strstr(text, "UP") ? "U" : "X");
    if (!strcmp(m->name, "SETGPR") || !strcmp(m->name, "GETGPR"))
        strcpy(st, "U");
    int want_st = stype_number(st);
#define EXPECT(cond, ...)                                                                                              \
    do {                                                                                                               \
        if (!(cond)) {                                                                                                 \
            bad++;                                                                                                     \
            fprintf(stderr, "  golden (by hand) %s: ", text);                                                          \
            fprintf(stderr, __VA_ARGS__);                                                                              \
            fputc('\n', stderr);                                                                                       \
        }                                                                                                              \
    } while (0)
    EXPECT(bits(w, 0, 8) == m->optype, "optype %llx, expected %x", (unsigned long long)bits(w, 0, 8), m->optype);
    EXPECT(want_st >= 0 && bits(w, 8, 4) == (uint64_t)want_st, "stype %llu, expected %s", (unsigned long long)bits(w, 8, 4), st);
    EXPECT(bits(w, 12, 3) == pg && bits(w, 15, 1) == pgnot, "guard bits");
    if (rd >= 0)
        EXPECT(bits(w, 16, 8) == (uint64_t)rd, "rd %llu, expected %ld", (unsigned long long)bits(w, 16, 8), rd);
    if (urd >= 0)
        EXPECT(bits(w, 16, 6) == (uint64_t)urd, "urd %llu, expected %ld", (unsigned long long)bits(w, 16, 6), urd);
    if (ra >= 0)
        EXPECT(bits(w, 24, 8) == (uint64_t)ra, "ra %llu, expected %ld", (unsigned long long)bits(w, 24, 8), ra);
    EXPECT(bits(w, 112, 5) == ctl[0] && bits(w, 117, 6) == ctl[1] && bits(w, 123, 3) == ctl[2] && bits(w, 126, 2) == 0,
           "scheduling controls");
    return bad;
}

int main(void)
{
    const gisa_isa *isa = test_isa();
    FILE *f = fopen(test_path("tests/golden/gisa128.golden"), "r");
    CHECKF(f != NULL, "cannot open %s", test_path("tests/golden/gisa128.golden"));
    if (!f)
        return test_summary();
    size_t nop = gisa_isa_opcode_count(isa);
    int *covered = calloc(nop, sizeof *covered);
    char line[600];
    int lines = 0, lineno = 0, hand_bad = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        line[strcspn(line, "\r\n")] = 0;
        if (!line[0] || line[0] == '#')
            continue;
        unsigned long long hi, lo;
        char text[600];
        if (strlen(line) < 35 || sscanf(line, "%16llx%16llx", &hi, &lo) != 2 || line[32] != ' ' || line[33] != ' ') {
            CHECKF(0, "golden line %d is not '<32 hex>  <text>': %s", lineno, line);
            continue;
        }
        snprintf(text, sizeof text, "%s", line + 34);
        lines++;
        gisa_word w = {{lo, hi}}, a = {{0, 0}};
        char dis[512];
        gisa_diags *d = api_diags();
        CHECKF(api_asm_one(isa, text, &a, d) == GISA_OK && a.w[0] == lo && a.w[1] == hi,
               "line %d: '%s' assembles to %016llx%016llx, golden %016llx%016llx", lineno, text, (unsigned long long)a.w[1],
               (unsigned long long)a.w[0], hi, lo);
        gisa_diags_free(d);
        CHECKF(gisa_disassemble(isa, w, dis, sizeof dis, NULL) == GISA_OK && !strcmp(dis, text),
               "line %d: %016llx%016llx disassembles to '%s', golden '%s'", lineno, hi, lo, dis, text);
        size_t oi = api_decode_opcode(isa, w);
        if (oi < nop)
            covered[oi]++;
        uint64_t ww[2] = {lo, hi};
        hand_bad += check_by_hand(text, ww);
    }
    fclose(f);
    CHECKF(hand_bad == 0, "%d field mismatches found by the independent decoder", hand_bad);
    int missing = 0;
    for (size_t i = 0; i < nop; i++)
        if (!covered[i]) {
            missing++;
            fprintf(stderr, "  no golden line for %s\n", gisa_isa_opcode_name(isa, i));
        }
    CHECKF(missing == 0 && nop > 0, "%d of %zu opcodes without a golden line", missing, nop);
    free(covered);
    printf("golden: %d lines, %zu opcodes\n", lines, nop);
    return test_summary();
}
