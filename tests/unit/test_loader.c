/* Unit tests of the ISA-description loader (src/spec/parse.c, resolve.c,
 * syntax.c): every construct of the description language loads into the
 * right model, malformed input is reported at the right file:line:col,
 * hostile input never crashes, and the real documents load completely. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L /* fork, waitpid, mkdtemp */
#endif
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "spec/embedded.h"
#include "spec/expr.h"
#include "spec/model.h"
#include "testlib.h"

/* A minimal project types file: target, registers, immediates, enums with
 * and without explicit numbers (OPB continues after OPA = 0x4; "32" is a
 * numeric enum name) and the ALL group holding the scheduling controls. */
static const char PRELUDE[] =
    "__DefTarget t<128>\n"
    "__DefRegisterType Reg<8>\n    class = GPR;\n    prefix = R;\n    zero = RZ = 255;\n"
    "__DefRegisterType Pred<3>\n    class = PRED;\n    prefix = P;\n    zero = PT = 7;\n"
    "__DefImmediateType UImm8<8>\n    format = unsigned;\n"
    "__DefImmediateType Ctl<5>\n    format = unsigned;\n"
    "__DefImmediateType Req<6>\n    format = unsigned;\n"
    "__DefImmediateType Wsb<3>\n    format = unsigned;\n"
    "__DefBitFieldType PModi<1>\n    False = 0;\n    True;\n"
    "__DefBitFieldType Optype<8>\n    OPA = 0x4;\n    OPB;\n    32;\n    OPC = 0x10;\n    OPD;\n"
    "__DefBitFieldType SType<4>\n    R;\n    RR;\n    RI;\n"
    "__DefBitFieldType Rnd<2>\n    RN;\n    RM;\n    RP;\n    RZ;\n"
    "__DefBitFieldType Width<1>\n    32;\n    64;\n"
    "__DefBitFieldType Ftz<1>\n    NoFTZ;\n    FTZ;\n"
    "__DefGroup ALL\n"
    "  __Encoding\n"
    "    field<112, 5> Ctl $sched = 0;\n"
    "    field<117, 6> Req $req = 0;\n"
    "    field<123, 3> Wsb $wsb = 0;\n";

/* Loads `prelude` (if any) as "types.isa" and `body` (len bytes) as "t.isa". */
static gisa_status load_len(const char *prelude, const char *body, size_t len, gisa_isa **isa, gisa_diags *d)
{
    gisa_source src[2] = {{"types.isa", prelude, prelude ? strlen(prelude) : 0}, {"t.isa", body, len}};
    return prelude ? api_load_sources(src, 2, isa, d) : api_load_sources(src + 1, 1, isa, d);
}

static gisa_status load(const char *body, gisa_isa **isa, gisa_diags *d)
{
    return load_len(PRELUDE, body, strlen(body), isa, d);
}

/* Runs fn in a child process, so that a crash (or a sanitizer abort) is
 * reported as a failed check and the remaining tests still run; the child
 * sends its pass/fail counts back through a pipe. */
static void isolated(const char *name, void (*fn)(void))
{
    int fd[2], counts[2] = {0, 0}, status = 0;
    fflush(NULL);
    pid_t pid = pipe(fd) == 0 ? fork() : -1;
    if (pid == 0) {
        close(fd[0]);
        test_passed = test_failed = 0;
        fn();
        fflush(NULL);
        counts[0] = test_passed, counts[1] = test_failed;
        _exit(write(fd[1], counts, sizeof counts) == (ssize_t)sizeof counts ? 0 : 1);
    }
    CHECKF(pid > 0, "%s: cannot fork", name);
    if (pid < 0)
        return;
    close(fd[1]);
    ssize_t got = read(fd[0], counts, sizeof counts);
    close(fd[0]);
    waitpid(pid, &status, 0);
    test_passed += counts[0], test_failed += counts[1];
    CHECKF(got == (ssize_t)sizeof counts && WIFEXITED(status) && WEXITSTATUS(status) == 0, "%s: %s %d", name,
           WIFSIGNALED(status) ? "crashed with signal" : "died, exit status",
           WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
}

/* ------------------------------------------------------------ 1./2. constructs, inheritance */

/* Everything the documents use, in one file. Chinese prose, tables and
 * examples sit inside sections; the __Syntax fence has spaces after ```asm. */
static const char KITCHEN_SINK[] =
    "__DefGroup G : [ALL]\n  __Encoding\n"
    "    field<12, 3> Pred pg = PT;            // trailing comment\n"
    "    field<15,1> PModi pg.not=False;\n"
    "// a full-line comment\n"
    "    field< 16,  8> Reg rd;\n    field<24,  8> Reg ra;\n"
    "    field<72,  1> PModi ra.neg = False;\n    field<76,  1> Ftz ftz = NoFTZ;\n"
    "    field<78,  2> Rnd rnd = RN;\n    field<82,  1> Width width = 32;\n"
    "    field<84,  3> Pred pu;\n    field<90,  2> Rnd rnd2 = RM;\n"
    "\n  __Description\n分组G：所有测试指令的公共字段。\n\n"
    "__DefOptype OPT : [G]\n  __Encoding\n    field< 0,  8> Optype optype==OPB;\n\n"
    "  __Syntax\n```asm   \n"
    "OPX{.FTZ}{.rnd}{.width} Rd{, pu}, {-}Ra, SrcB      $sched $req $wsb ;\n"
    "\n.rnd = {.RN*, .RP, .RM, .RZ}\nwidth = {.32*, .64}\n```\n\n"
    "  __Description\n执行测试运算，即Rd = Ra + SrcB。\n"
    "  __OperandInfo\nRa和Rd必须来源于GPR。\n\n"
    "  __ModifierInfo\n| .rnd  | 舍入模式 |\n|:--:|:---|\n|.RN | 尾数四舍五入 |\n\n"
    "  __Examples\n```asm\nOPX.RZ R0, R1, R2 ;  // R0 = R1 + R2\n```\n\n"
    "__DefOpcode OPX_RR : [OPT]\n  __Encoding\n"
    "    field< 8,  4> SType stype == RR;\n    field<32,  8> Reg rb;\n"
    "  __OperandInfo\n"
    "    InList<pg, ra, rb>;\n    OutList<>;\n    Order<pg, R[urb, ridx], ra>;\n"
    "    Bitwidth<rd> = 32 + (width==\"64\")*32;\n"
    "    AsmFormat<ra.neg> = CvtINegX(ra.neg, ftz);\n    ModiOrder<rnd, width>;\n"
    "  __Exception\n"
    "    EncodingError<IllegalBitFieldCombination, \"RZ with FTZ or 64\"> = "
    "(rnd==\"RZ\") and (ftz==\"FTZ\" or width==\"64\");\n\n"
    "__DefOpcode OPX_RI : [OPT]\n  __Encoding\n"
    "    field< 8,  4> SType stype == RI;\n    field<32,  8> UImm8 vb;\n    field<92,  2> Rnd rnd2 = RP;\n"
    "  __Semantics\n```\nRd = Ra + SrcB;\n```\n";

/* Field `name` of op sits at off/width, was placed by `owner`, and is plain
 * (how = 0), has the default (1) or the fixed value (2) `value`. */
static int field_is(const isa_opcode *op, const char *name, int off, int width, int how, uint64_t value,
                    const char *owner)
{
    int i = model_field(op, name);
    const isa_field *f = i < 0 ? NULL : &op->fields[i];
    return f && f->off == off && f->width == width && f->has_default == (how == 1) && f->fixed == (how == 2) &&
           (how == 0 || f->value == value) && !strcmp(f->owner->name, owner);
}

static const mod_slot *mod_of(const syntax_form *f, const char *name)
{
    for (int i = 0; i < f->nmods; i++)
        if (!strcmp(f->mods[i].name, name))
            return &f->mods[i];
    return NULL;
}

static uint64_t enum_value(const gisa_isa *isa, const char *type, const char *name)
{
    uint64_t v;
    const isa_type *t = model_type(isa, type);
    return t && type_value(t, name, strlen(name), &v) == 0 ? v : UINT64_MAX;
}

/* Stops the current test when a precondition of the following checks fails. */
#define REQUIRE(cond) do { CHECK(cond); if (!(cond)) goto out; } while (0)

static void test_constructs(void)
{
    gisa_diags *d = api_diags();
    gisa_isa *isa = NULL;
    gisa_status st = load(KITCHEN_SINK, &isa, d);
    if (st != GISA_OK)
        test_dump_diags(d);
    REQUIRE(st == GISA_OK && isa && gisa_diags_errors(d) == 0);
    CHECK(gisa_isa_word_bits(isa) == 128);

    /* enum numbering: OPB continues after OPA = 0x4, "32" is a name */
    CHECK(enum_value(isa, "Optype", "OPA") == 4 && enum_value(isa, "Optype", "OPB") == 5);
    CHECK(enum_value(isa, "Optype", "32") == 6 && enum_value(isa, "Optype", "OPD") == 0x11);
    CHECK(enum_value(isa, "Width", "64") == 1 && enum_value(isa, "PModi", "True") == 1);
    CHECK(enum_value(isa, "Optype", "OPE") == UINT64_MAX);

    CHECK(gisa_isa_optype_count(isa) == 1 && !strcmp(gisa_isa_optype_name(isa, 0), "OPT"));
    REQUIRE(gisa_isa_opcode_count(isa) == 2 && api_find_opcode(isa, "OPX_RR") == 0 &&
            api_find_opcode(isa, "OPX_RI") == 1);
    CHECK(!strcmp(gisa_isa_opcode_name(isa, 1), "OPX_RI") && gisa_isa_opcode_name(isa, 2) == NULL);
    const isa_opcode *op = &isa->opcodes[0], *op2 = &isa->opcodes[1];

    /* spacing variants, dotted names, = and == with and without spaces */
    CHECK(field_is(op, "rd", 16, 8, 0, 0, "G"));
    CHECK(field_is(op, "pg.not", 15, 1, 1, 0, "G"));
    CHECK(field_is(op, "pg", 12, 3, 1, 7, "G")); /* PT */
    CHECK(field_is(op, "optype", 0, 8, 2, 5, "OPT"));
    CHECK(field_is(op, "width", 82, 1, 1, 0, "G")); /* "32" */
    CHECK(op->guard >= 0 && op->guard == model_field(op, "pg") && op->guard_not == model_field(op, "pg.not"));

    /* operand-info directives */
    CHECK(op->inlist && op->inlist->nnames == 3 && !strcmp(op->inlist->names[2], "rb"));
    CHECK(op->outlist && op->outlist->nnames == 0);
    CHECK(op->order && op->order->nnames == 3 && !strcmp(op->order->names[1], "R[urb, ridx]") &&
          !strcmp(op->order->names[2], "ra"));
    CHECK(op->modiorder && op->modiorder->nnames == 2 && !strcmp(op->modiorder->names[1], "width"));
    const raw_opinfo *af = NULL;
    for (int i = 0; i < op->def->nopinfo; i++)
        if (op->def->opinfo[i].kind == OI_ASMFORMAT)
            af = &op->def->opinfo[i];
    CHECK(af && !strcmp(af->names[0], "ra.neg") && !strcmp(af->func, "CvtINegX") && af->nargs == 2 &&
          !strcmp(af->args[0], "ra.neg") && !strcmp(af->args[1], "ftz"));

    /* EncodingError: (rnd=="RZ") and (ftz=="FTZ" or width=="64") */
    int r = model_field(op, "rnd"), z = model_field(op, "ftz"), w = model_field(op, "width");
    REQUIRE(r >= 0 && z >= 0 && w >= 0 && op->nexceptions == 1);
    const isa_exception *ex = &op->exceptions[0];
    CHECK(!strcmp(ex->kind, "IllegalBitFieldCombination") && !strcmp(ex->message, "RZ with FTZ or 64"));
    uint64_t v[64] = {0};
    v[r] = 3;
    CHECK(expr_eval(ex->cond, v) == 0);
    v[z] = 1;
    CHECK(expr_eval(ex->cond, v) == 1);
    v[z] = 0, v[w] = 1;
    CHECK(expr_eval(ex->cond, v) == 1);
    v[r] = 2;
    CHECK(expr_eval(ex->cond, v) == 0);

    /* the fences kept their lines; prose became the description */
    const raw_def *ot = isa->optypes[0].def;
    CHECK(ot->nexamples == 1 && !strcmp(ot->examples[0].text, "OPX.RZ R0, R1, R2 ;  // R0 = R1 + R2"));
    CHECK(ot->description && !strcmp(ot->description, "执行测试运算，即Rd = Ra + SrcB。"));
    CHECK(op2->def->nsemantics == 1);

    /* 2. inheritance: placement, overriding, match/mask */
    CHECK(op->nchain == 4 && !strcmp(op->chain[0]->name, "ALL") && !strcmp(op->chain[1]->name, "G"));
    CHECK(op->nfields == 16 && op2->nfields == 16); /* rnd2 replaced, not added */
    CHECK(field_is(op2, "rd", 16, 8, 0, 0, "G") && field_is(op2, "$wsb", 123, 3, 1, 0, "ALL"));
    CHECK(field_is(op, "rnd2", 90, 2, 1, 1, "G") && field_is(op2, "rnd2", 92, 2, 1, 2, "OPX_RI"));
    CHECK(model_field(op2, "rb") < 0 && model_field(op, "vb") < 0);
    /* fixed bits: optype (0..7) and stype (8..11) only */
    CHECK(op->mask.w[0] == 0xfff && op->mask.w[1] == 0);
    CHECK(word_get(&op->match, 0, 8) == 5 && word_get(&op->match, 8, 4) == 1);
    CHECK(word_get(&op2->match, 0, 8) == 5 && word_get(&op2->match, 8, 4) == 2);
    CHECK(op2->match.w[0] == 0x205 && op2->match.w[1] == 0);
    CHECK(word_get(&op->covered, 112, 14) == 0x3fff && word_get(&op->covered, 126, 2) == 0);

    /* the syntax form: mnemonic, modifiers, value lists, operands, controls */
    REQUIRE(op->nforms == 1 && op2->nforms == 1);
    const syntax_form *fm = &op->forms[0];
    CHECK(!strcmp(fm->mnemonic, "OPX"));
    CHECK(fm->ctl[0] >= 0 && fm->ctl[0] == model_field(op, "$sched") && fm->ctl[1] == model_field(op, "$req") &&
          fm->ctl[2] == model_field(op, "$wsb"));
    const mod_slot *m = mod_of(fm, "rnd");
    CHECK(m && m->nchoices == 4 && m->def_choice == 0 && m->optional && m->field == r);
    CHECK(m && m->nchoices == 4 && !strcmp(m->choices[1].spell, "RP") && m->choices[1].value == 2 &&
          !strcmp(m->choices[3].spell, "RZ") && m->choices[3].value == 3);
    m = mod_of(fm, "width"); /* the list written without a leading dot */
    CHECK(m && m->nchoices == 2 && !strcmp(m->choices[1].spell, "64") && m->choices[1].value == 1 &&
          m->def_choice == 0 && m->field == w);
    m = mod_of(fm, "FTZ");
    CHECK(m && m->literal && m->optional && m->field == z && m->nchoices == 1 && m->choices[0].value == 1);
    /* the unused rnd2 is pinned to its (overridden) default by the form */
    CHECK(word_get(&fm->mask, 90, 2) == 3 && word_get(&fm->match, 90, 2) == 1);
    CHECK(word_get(&op2->forms[0].mask, 92, 2) == 3 && word_get(&op2->forms[0].match, 92, 2) == 2);
    CHECK(word_get(&op2->forms[0].mask, 90, 2) == 0);
    REQUIRE(fm->nops == 4 && fm->ngroups == 1);
    CHECK(!strcmp(fm->ops[0].name, "Rd") && fm->ops[0].field == model_field(op, "rd") && fm->ops[0].group == 0);
    CHECK(!strcmp(fm->ops[1].name, "pu") && fm->ops[1].group == 1 && fm->ops[1].kind == OK_REG);
    CHECK(fm->ops[2].allow_neg && fm->ops[2].neg_field == model_field(op, "ra.neg"));
    CHECK(fm->ops[3].field == model_field(op, "rb") && fm->ops[3].bitwidth == NULL);
    CHECK(op2->forms[0].nops == 4 && op2->forms[0].ops[3].field == model_field(op2, "vb"));
    /* Bitwidth<rd> = 32 + (width=="64")*32 for both values of width */
    const expr *bw = fm->ops[0].bitwidth;
    REQUIRE(bw != NULL);
    memset(v, 0, sizeof v);
    CHECK(expr_eval(bw, v) == 32);
    v[w] = 1;
    CHECK(expr_eval(bw, v) == 64);
out:
    gisa_isa_free(isa);
    gisa_diags_free(d);
}

/* CRLF line ends and a UTF-8 byte-order mark change nothing. */
static void test_crlf_bom(void)
{
    size_t n = strlen(KITCHEN_SINK), k = 3;
    char *crlf = malloc(2 * n + 4);
    memcpy(crlf, "\xEF\xBB\xBF", 3);
    for (size_t i = 0; i < n; i++) {
        if (KITCHEN_SINK[i] == '\n')
            crlf[k++] = '\r';
        crlf[k++] = KITCHEN_SINK[i];
    }
    gisa_diags *d = api_diags();
    gisa_isa *isa = NULL;
    gisa_status st = load_len(PRELUDE, crlf, k, &isa, d);
    CHECKF(st == GISA_OK && gisa_isa_opcode_count(isa) == 2, "CRLF + BOM: status %d", st);
    if (st == GISA_OK)
        CHECK(isa->opcodes[0].nforms == 1 && isa->opcodes[0].forms[0].nops == 4 &&
              !strchr(isa->opcodes[0].forms[0].text, '\r'));
    gisa_isa_free(isa);
    free(crlf);
    gisa_diags_free(d);
}

/* ------------------------------------------------------------ 3. errors */

/* A valid opcode definition (8 lines) to complete bodies whose error is found late. */
#define OPCODE_OK                                                                                   \
    "__DefOpcode OK : [ALL]\n  __Encoding\n    field<0, 8> Optype optype == OPA;\n"                \
    "    field<16, 8> Reg rd;\n  __Syntax\n```asm\nOK Rd $sched ;\n```\n"

/* Each malformed body: the error's line, a token whose first occurrence on
 * that line gives the column, and part of the message. */
static const struct bad_case {
    const char *what, *body;
    int line;
    const char *tok, *msg;
} bad_cases[] = {
    {"unterminated fence",
     "__DefOpcode X : [ALL]\n  __Encoding\n    field<0, 8> Optype optype == OPA;\n"
     "  __Syntax\n  ```asm\nX $sched ;\n__DefOpcode Y : [ALL]\n",
     5, "```", "unterminated code block"},
    {"field without ','", "__DefGroup G : [ALL]\n  __Encoding\n    field<8 4> Reg rd;\n", 3, "4>", "expected ','"},
    {"field without a name", "__DefGroup G : [ALL]\n  __Encoding\n    field<8, 4> Reg;\n", 3, ";",
     "expected the field's name"},
    {"field too wide", "__DefGroup G : [ALL]\n  __Encoding\n    field<8, 99> Reg rd;\n", 3, "field",
     "field width must be 1..64"},
    {"field past the word", OPCODE_OK "__DefOpcode X : [ALL]\n  __Encoding\n    field<120, 16> Reg rx;\n", 11, "rx",
     "past the last bit"},
    {"field far past the word", OPCODE_OK "__DefOpcode X : [ALL]\n  __Encoding\n    field<300, 8> Reg rx;\n", 11,
     "rx", "past the last bit"},
    /* the caret belongs under the unknown type, not under the field name */
    {"unknown type", OPCODE_OK "__DefOpcode X : [ALL]\n  __Encoding\n    field<40, 8> Rgg rx;\n", 11, "Rgg",
     "unknown type 'Rgg'"},
    {"unknown parent of an opcode", OPCODE_OK "__DefOpcode X : [NOPE]\n", 9, "NOPE", "unknown parent 'NOPE'"},
    {"unknown parent of an optype",
     OPCODE_OK "__DefOptype T : [ALX]\n  __Syntax\n```\nX $sched ;\n```\n__DefOpcode X : [T]\n", 9, "ALX",
     "unknown parent 'ALX'"},
    /* a typo in a parent name is an error even before an opcode uses the group */
    {"unknown parent of an unused group", OPCODE_OK "__DefGroup G : [NOPE]\n", 9, "NOPE", "unknown parent 'NOPE'"},
    {"inheritance cycle", "__DefGroup CYA : [CYB]\n__DefGroup CYB : [CYA]\n" OPCODE_OK "__DefOpcode CYOP : [CYA]\n",
     11, "CYOP", "inheritance cycle"},
    {"duplicate group", "__DefGroup G : [ALL]\n__DefGroup H : [ALL]\n\n__DefGroup G : [ALL]\n", 4, "G ",
     "'G' is defined twice"},
    {"duplicate opcode", OPCODE_OK OPCODE_OK, 9, "OK", "'OK' is defined twice"},
    {"duplicate type", "__DefBitFieldType Reg<2>\n    A;\n", 1, "Reg", "type 'Reg' is defined twice"},
    /* a later __DefBitFieldType adds values only with the same width, new names and new values */
    {"extending a type with another width", "__DefBitFieldType Optype<6>\n    OPX = 0x30;\n", 1, "Optype",
     "type 'Optype' is 8 bits wide (types.isa:21); a later __DefBitFieldType adds values to it only with the same "
     "width, not 6"},
    {"extending a type with a name taken", "__DefBitFieldType Optype<8>\n    OPX = 0x30;\n    OPB = 0x31;\n", 3,
     "OPB", "value name 'OPB' of type Optype is already taken (= 0x5 at types.isa:23)"},
    {"extending a type with a value taken", "__DefBitFieldType Optype<8>\n    OPX = 0x10;\n", 2, "OPX",
     "value 0x10 of type Optype is already taken by OPC (types.isa:25)"},
    {"duplicate field", "__DefGroup G : [ALL]\n  __Encoding\n    field<16, 8> Reg rd;\n    field<24, 8> Reg rd;\n", 4,
     "rd", "field 'rd' is defined twice"},
    {"duplicate enum value", "__DefBitFieldType E<2>\n    A;\n    B;\n    A = 3;\n", 4, "A",
     "duplicate value name 'A'"},
    {"unknown keyword", "__DefGroup G : [ALL]\n  __Encoding\n  __Foo\n", 3, "__Foo", "unknown keyword '__Foo'"},
    {"unknown directive", "__DefGroup G : [ALL]\n  __OperandInfo\n文字\n    Inlist<pg, ra>;\n", 4, "Inlist",
     "unknown operand-info directive 'Inlist'"},
    {"bad Bitwidth expression", "__DefGroup G : [ALL]\n  __OperandInfo\n    Bitwidth<rd> = 32 + ;\n", 3, ";",
     "expected a number"},
    {"unbalanced Bitwidth expression", "__DefGroup G : [ALL]\n  __OperandInfo\n    Bitwidth<rd> = (32 + 1;\n", 3,
     ";", "expected ')'"},
    /* the caret belongs at the opening quote, not past the end of the line */
    {"unterminated message", "__DefGroup G : [ALL]\n  __Exception\n    EncodingError<Bad, \"oops> = (rd == 1);\n",
     3, "\"", "unterminated \"message\" string"},
    {"unterminated string in a condition",
     "__DefGroup G : [ALL]\n  __Exception\n    EncodingError<Bad, \"m\"> = (rd == \"RZ);\n", 3, "\"RZ",
     "unterminated string"},
    {"unknown field in a condition",
     OPCODE_OK "  __Exception\n    EncodingError<Bad, \"m\"> = (rd == 1) and (rq == 2);\n", 10, "rq",
     "'rq' is not a field of OK"},
    {"syntax operand without a field",
     "__DefOpcode X : [ALL]\n  __Encoding\n    field<0, 8> Optype optype == OPA;\n"
     "    field<16, 8> Reg rd;\n  __Syntax\n```asm\nX Rd, Rq $sched ;\n```\n",
     7, "Rq", "operand 'Rq' matches no field of X"},
    {"syntax modifier without a closing brace",
     "__DefOpcode X : [ALL]\n  __Encoding\n    field<0, 8> Optype optype == OPA;\n"
     "  __Syntax\n```\nX{.FTZ Rd ;\n```\n",
     6, " Rd", "expected '}'"},
    {"value not of the field's type", OPCODE_OK "__DefOpcode X : [ALL]\n  __Encoding\n    field<12, 3> Pred pg = PX;\n",
     11, "PX", "'PX' is not a value of type Pred"},
    {"fixed value not of the field's type",
     "__DefOpcode X : [ALL]\n  __Encoding\n    field<0, 8> Optype optype == OPZ;\n", 3, "OPZ",
     "'OPZ' is not a value of type Optype"},
    {"text outside any definition", "\n  stray text\n" OPCODE_OK, 2, "stray", "text outside any definition"},
    {"text before the first section", "__DefGroup G : [ALL]\n    field<16, 8> Reg rd;\n", 2, "field",
     "before the first section"},
    {"section outside a definition", "  __Encoding\n", 1, "__Encoding", "outside a group"},
};

/* The case fails with GISA_ERR_INPUT and no model; its first error reads
 * `t.isa:LINE:COL: error: ...msg...` and carries LINE's text as source line. */
static void expect_error(const struct bad_case *c)
{
    gisa_diags *d = api_diags();
    gisa_isa *isa = NULL;
    gisa_status st = load(c->body, &isa, d);
    CHECKF(st == GISA_ERR_INPUT && !isa, "%s: status %d", c->what, st);
    gisa_isa_free(isa);
    const gisa_diag *g = NULL;
    for (size_t i = 0; i < gisa_diags_count(d) && !g; i++)
        if (gisa_diags_get(d, i)->severity == GISA_ERROR)
            g = gisa_diags_get(d, i);
    CHECKF(g != NULL, "%s: no error reported", c->what);
    if (g) {
        const char *p = c->body; /* the text of line c->line */
        for (int i = 1; i < c->line; i++)
            p = strchr(p, '\n') + 1;
        char text[256], want[300];
        snprintf(text, sizeof text, "%.*s", (int)strcspn(p, "\n"), p);
        const char *at = strstr(text, c->tok);
        snprintf(want, sizeof want, "t.isa:%d:%d: error: ", c->line, at ? (int)(at - text) + 1 : -1);
        char *s = api_diag_text(g, 0);
        CHECKF(!strncmp(s, want, strlen(want)), "%s: got \"%s\", want \"%s...\"", c->what, s, want);
        CHECKF(strstr(s, c->msg), "%s: \"%s\" lacks \"%s\"", c->what, s, c->msg);
        CHECKF(g->source_line && !strcmp(g->source_line, text), "%s: source line \"%s\", want \"%s\"", c->what,
               g->source_line ? g->source_line : "(null)", text);
        free(s);
    }
    gisa_diags_free(d);
}

/* A later __DefBitFieldType of the same name and width adds values: a
 * value without `=` follows the type's highest one (OPD = 0x11), and an
 * opcode of the file uses them at once. */
static void test_extended_type(void)
{
    static const char body[] = "__DefBitFieldType Optype<8>\n    OPX;\n    OPY = 0x40;\n"
                               "__DefOpcode NEW : [ALL]\n  __Encoding\n    field<0, 8> Optype optype == OPX;\n"
                               "    field<16, 8> Reg rd;\n  __Syntax\n```asm\nNEW Rd $sched ;\n```\n";
    gisa_diags *d = api_diags();
    gisa_isa *isa = NULL;
    gisa_status st = load(body, &isa, d);
    if (st != GISA_OK)
        test_dump_diags(d);
    REQUIRE(st == GISA_OK && isa);
    CHECK(enum_value(isa, "Optype", "OPX") == 0x12 && enum_value(isa, "Optype", "OPY") == 0x40);
    CHECK(enum_value(isa, "Optype", "OPA") == 4 && enum_value(isa, "Optype", "OPD") == 0x11);
    gisa_word w;
    CHECK(api_asm_one(isa, "NEW R3", &w, d) == GISA_OK && w.w[0] == (0x12u | 3u << 16) && w.w[1] == 0);
out:
    gisa_isa_free(isa);
    gisa_diags_free(d);
}

/* gisa_isa_load: the embedded ISA or paths, then the added files. */
static void test_load_add(void)
{
    gisa_diags *d = api_diags();
    gisa_isa *isa = (gisa_isa *)1, *emb = test_isa();
    /* no options: the embedded default target */
    CHECK(gisa_isa_load(NULL, &isa, d) == GISA_OK && gisa_isa_opcode_count(isa) == gisa_isa_opcode_count(emb));
    gisa_isa_free(isa);
    /* a size no version of the struct has: refused, *out NULL */
    gisa_load_options o = {0};
    isa = (gisa_isa *)1;
    CHECK(gisa_isa_load(&o, &isa, d) == GISA_ERR_USAGE && isa == NULL);
    o = (gisa_load_options)GISA_LOAD_OPTIONS_INIT;
    CHECK(gisa_isa_load(&o, &isa, d) == GISA_OK && gisa_isa_opcode_count(isa) == gisa_isa_opcode_count(emb));
    gisa_isa_free(isa);
    const char *add[] = {test_path("examples/new-instruction/iadd3.isa")};
    const char *shipped[] = {test_path("isa/gisa128")};
    for (int base = 0; base < 2; base++) {
        o = (gisa_load_options)GISA_LOAD_OPTIONS_INIT;
        o.paths = shipped;
        o.npaths = (size_t)base;
        o.add = add;
        o.nadd = 1;
        gisa_status st = gisa_isa_load(&o, &isa, d);
        if (st != GISA_OK)
            test_dump_diags(d);
        CHECKF(st == GISA_OK && gisa_isa_opcode_count(isa) == gisa_isa_opcode_count(emb) + 4 &&
                   gisa_isa_optype_count(isa) == gisa_isa_optype_count(emb) + 1,
               "base %d: status %d", base, st);
        gisa_word w;
        CHECK(api_asm_one(isa, "IADD3 R1, R2, R3, R4", &w, d) == GISA_OK && (w.w[0] & 0xff) == 0x60);
        CHECK(api_asm_one(emb, "IADD3 R1, R2, R3, R4", &w, d) == GISA_ERR_INPUT);
        gisa_isa_free(isa);
    }
    gisa_diags_free(d);
}

static const struct bad_case *cur_case;
static void expect_cur_error(void) { expect_error(cur_case); }

static void test_errors(void)
{
    for (size_t i = 0; i < sizeof bad_cases / sizeof *bad_cases; i++) {
        cur_case = &bad_cases[i];
        isolated(cur_case->what, expect_cur_error);
    }

    /* no __DefTarget: the types file is missing entirely (no location to give) */
    static const char no_target[] = "__DefRegisterType Reg<8>\n    class = GPR;\n    prefix = R;\n"
                                    "    zero = RZ = 255;\n__DefBitFieldType Optype<8>\n    OPA;\n";
    gisa_diags *d = api_diags();
    gisa_isa *isa = NULL;
    gisa_status st = load_len(no_target, OPCODE_OK, strlen(OPCODE_OK), &isa, d);
    CHECKF(st == GISA_ERR_INPUT && !isa, "no target: status %d", st);
    CHECK(test_diags_contain(d, "error: no __DefTarget"));
    /* an empty file is fine; bad arguments are usage errors */
    gisa_diags_clear(d);
    st = load("", &isa, d);
    CHECKF(st == GISA_OK && gisa_isa_opcode_count(isa) == 0, "empty body: status %d", st);
    gisa_isa_free(isa);
    CHECK(api_load_sources(NULL, 0, NULL, d) == GISA_ERR_USAGE);
    CHECK(api_load_sources(NULL, 1, &isa, d) == GISA_ERR_USAGE);
    gisa_diags_free(d);
}

/* ------------------------------------------------------------ 4. robustness */

static tg_rng rng = {0x9E3779B97F4A7C15u};

/* Loads an exact-size copy of text (so that ASan sees reads past its end).
 * The result must be OK with a model, or an error status with no model and
 * at least one error; anything else (or a crash) fails. */
static int nok; /* loads that succeeded */
static int load_is_sane(const char *prelude, const char *text, size_t len, gisa_diags *d)
{
    gisa_isa *isa = (gisa_isa *)&rng; /* must be overwritten */
    char *copy = malloc(len ? len : 1);
    memcpy(copy, text, len);
    gisa_diags_clear(d);
    gisa_status st = load_len(prelude, copy, len, &isa, d);
    free(copy);
    int ok = st == GISA_OK ? isa != NULL && gisa_diags_errors(d) == 0
                           : (st == GISA_ERR_INPUT || st == GISA_ERR_NOMEM) && !isa && gisa_diags_errors(d) > 0;
    if (st == GISA_OK)
        gisa_isa_free(isa), nok++;
    static int dumped;
    if (!ok && dumped++ < 3)
        test_dump_diags(d);
    return ok;
}

static const char *const tok[] = {
    "__DefOpcode ", "__DefGroup ", "__DefOptype ", "__DefBitFieldType ", "__DefRuling ", "__Encoding",
    "__Syntax", "__OperandInfo", "__Exception", "__Examples", "field<", "```", "```asm", "{", "}", "<", ">", ";",
    "=", "==", "\n", "\n", "\n    ", ",", "[", "]", " : [", "(", ")", "\"", ".", "*", "$sched", "Reg", "Pred",
    "Optype", "rd", "pg", "ALL", "OPA", "X", "Rd", "7", "255", "0x", "-", "|", "!", "Bitwidth<", "Order<",
    "EncodingError<", " and ", " or ", "//", " ", "\t", "\r", "说明",
};
#define NTOK (sizeof tok / sizeof *tok)

static void fuzz_random(void)
{
    static const unsigned char special[] = {0x00, 0xff, 0x80, 0xef, 0xbb, 0xbf, 0x01};
    gisa_diags *d = api_diags();
    char buf[512];
    int bad = 0;
    for (int it = 0; it < 2000; it++) {
        size_t want = tg_below(&rng, 401), n = 0;
        while (n < want) {
            unsigned r = tg_below(&rng, 10);
            if (r < 6) { /* a token, maybe cut */
                const char *t = tok[tg_below(&rng, NTOK)];
                size_t l = strlen(t) < want - n ? strlen(t) : want - n;
                memcpy(buf + n, t, l);
                n += l;
            } else if (r < 8)
                buf[n++] = (char)((tg_below(&rng, 2) ? 'a' : 'A') + tg_below(&rng, 26));
            else if (r < 9)
                buf[n++] = (char)('0' + tg_below(&rng, 10));
            else
                buf[n++] = (char)(tg_below(&rng, 2) ? special[tg_below(&rng, sizeof special)] : tg_below(&rng, 256));
        }
        if (!load_is_sane(it & 1 ? PRELUDE : NULL, buf, n, d) && bad++ < 3)
            fprintf(stderr, "random input %d (%zu bytes) gave an inconsistent result\n", it, n);
    }
    printf("random inputs: %d loaded, %d rejected\n", nok, 2000 - nok);
    CHECKF(bad == 0, "%d random inputs gave inconsistent results", bad);

    /* mutants of a valid file reach the model builder and the syntax mapper */
    char m[sizeof KITCHEN_SINK + 64];
    nok = bad = 0;
    for (int it = 0; it < 1000; it++) {
        size_t n = strlen(KITCHEN_SINK);
        memcpy(m, KITCHEN_SINK, n);
        for (int e = 1 + (int)tg_below(&rng, 3); e > 0; e--) { /* replace [at, at+cut) by a token */
            const char *t = tok[tg_below(&rng, NTOK)];
            size_t at = tg_below(&rng, n + 1), cut = tg_below(&rng, 2) ? tg_below(&rng, 8) : 0, l = strlen(t);
            cut = cut < n - at ? cut : n - at;
            memmove(m + at + l, m + at + cut, n - at - cut);
            memcpy(m + at, t, l);
            n = n + l - cut;
        }
        if (!load_is_sane(PRELUDE, m, n, d) && bad++ < 3)
            fprintf(stderr, "mutant %d gave an inconsistent result\n", it);
    }
    printf("mutants: %d loaded, %d rejected\n", nok, 1000 - nok);
    CHECK(nok > 0 && nok < 1000); /* neither all broken nor all harmless */
    CHECKF(bad == 0, "%d mutants gave inconsistent results", bad);
    gisa_isa *isa = NULL; /* no diagnostics list at all */
    CHECK(load("__DefGroup G : [ALL]\n  __Encoding\n  field<", &isa, NULL) == GISA_ERR_INPUT && !isa);
    gisa_diags_free(d);
}

static void fuzz_truncations(void)
{
    static char seed[1 << 20];
    char path[4200];
    snprintf(path, sizeof path, "%s/seeds/falu.isa.txt", test_shared_dir() ? test_shared_dir() : "");
    FILE *f = test_shared_dir() ? fopen(path, "rb") : NULL;
    size_t len = f ? fread(seed, 1, sizeof seed, f) : 0;
    if (f)
        fclose(f);
    if (!len) {
        printf("skipped: truncations (no ../shared/seeds/falu.isa.txt)\n");
        return;
    }
    const char *types = NULL; /* the project's types file, as compiled in */
    for (size_t i = 0; i < gisa_embedded_file_count; i++)
        if (!strcmp(gisa_embedded_files[i].target, "gisa128") && !strcmp(gisa_embedded_files[i].name, "types.isa"))
            types = gisa_embedded_files[i].text;
    gisa_diags *d = api_diags();
    gisa_isa *isa = NULL;
    CHECK(types && load_len(types, seed, len, &isa, d) == GISA_OK && gisa_isa_opcode_count(isa) > 20); /* whole */
    gisa_isa_free(isa);
    int bad = 0;
    for (int k = 0; types && k < 300; k++) {
        size_t n = len * (size_t)k / 300 + (size_t)(k % 7); /* also cuts inside UTF-8 and tokens */
        if (!load_is_sane(types, seed, n, d) && bad++ < 3)
            fprintf(stderr, "falu.isa.txt cut at %zu bytes gave an inconsistent result\n", n);
    }
    CHECKF(bad == 0, "%d truncations gave inconsistent results", bad);
    gisa_diags_free(d);
}

/* Loads head + reps copies of unit + tail after PRELUDE. */
static gisa_status load_repeated(const char *head, const char *unit, int reps, const char *tail, gisa_isa **isa,
                                 gisa_diags *d)
{
    size_t hl = strlen(head), ul = strlen(unit), tl = strlen(tail);
    char *s = malloc(hl + ul * (size_t)reps + tl + 1), *p = s + hl;
    memcpy(s, head, hl);
    for (int i = 0; i < reps; i++, p += ul)
        memcpy(p, unit, ul);
    memcpy(p, tail, tl + 1);
    gisa_status st = load(s, isa, d);
    free(s);
    return st;
}

static void fuzz_deep_expressions(void)
{
    static const char bw[] = "__DefGroup G : [ALL]\n  __OperandInfo\n    Bitwidth<rd> = ";
    static const char ex[] = "__DefGroup G : [ALL]\n  __Exception\n    EncodingError<Bad, \"m\"> = ";
    static const struct { const char *head, *unit; } deep[] = {
        {bw, "("}, {bw, "-"}, {ex, "!"}, {ex, "not "}, {ex, "(rd == 1 and "}};
    gisa_diags *d = api_diags();
    gisa_isa *isa = NULL;
    for (size_t i = 0; i < sizeof deep / sizeof *deep; i++) {
        gisa_diags_clear(d);
        gisa_status st = load_repeated(deep[i].head, deep[i].unit, 10000, "1;\n", &isa, d);
        CHECKF(st == GISA_ERR_INPUT && test_diags_contain(d, "t.isa:3:") && test_diags_contain(d, "nested too deeply"),
               "10000 x \"%s\": status %d", deep[i].unit, st);
        gisa_isa_free(isa);
    }
    /* moderate nesting still works, and a missing ')' is still found */
    gisa_diags_clear(d);
    CHECK(load_repeated(bw, "(", 10, "32))))))))));\n", &isa, d) == GISA_OK);
    gisa_isa_free(isa);
    CHECK(load_repeated(bw, "(", 10, "32));\n", &isa, d) == GISA_ERR_INPUT && test_diags_contain(d, "expected ')'"));
    gisa_diags_free(d);
}

/* A long flat expression has no nesting, but resolving and evaluating it
 * must not recurse once per term either (a 600 KB line). */
static void fuzz_flat_expression(void)
{
    gisa_diags *d = api_diags();
    gisa_isa *isa = NULL;
    gisa_status st = load_repeated(OPCODE_OK "  __OperandInfo\n    Bitwidth<rd> = ", "1+", 300000, "0;\n", &isa, d);
    CHECKF(st == GISA_ERR_INPUT || st == GISA_OK, "300000-term sum: status %d", st);
    if (st == GISA_OK) {
        uint64_t v[8] = {0};
        const opnd_slot *rd = &isa->opcodes[0].forms[0].ops[0];
        CHECK(rd->bitwidth && expr_eval(rd->bitwidth, v) == 300000);
    }
    gisa_isa_free(isa);
    gisa_diags_free(d);
}

/* ------------------------------------------------------------ 5. the real documents */

/* The sizes of the models the documents define: the one place that pins
 * them, so that a lost (or an added) opcode or optype fails here. Update it
 * together with the documents; every other test counts from the model. */
static const struct {
    const char *target;
    size_t opcodes, optypes;
} DOCUMENTED[] = {{"gisa128", 187, 43}, {"fermi", 32, 12}};

static void test_real_documents(void)
{
    gisa_diags *d = api_diags();
    gisa_isa *emb = NULL, *seeds = NULL;
    CHECKF(gisa_target_count() == sizeof DOCUMENTED / sizeof *DOCUMENTED, "%zu targets", gisa_target_count());
    for (size_t t = 0; t < gisa_target_count(); t++) {
        const char *name = gisa_target_name(t);
        size_t k = 0;
        while (k < sizeof DOCUMENTED / sizeof *DOCUMENTED && strcmp(DOCUMENTED[k].target, name))
            k++;
        CHECKF(k < sizeof DOCUMENTED / sizeof *DOCUMENTED, "target %s is not listed", name);
        gisa_status st = api_load_embedded(name, &emb, d);
        CHECKF(st == GISA_OK, "embedded %s: status %d", name, st);
        test_dump_diags(d);
        gisa_diags_clear(d);
        if (st == GISA_OK && k < sizeof DOCUMENTED / sizeof *DOCUMENTED) {
            CHECKF(gisa_isa_opcode_count(emb) == DOCUMENTED[k].opcodes, "embedded %s: %zu opcodes", name,
                   gisa_isa_opcode_count(emb));
            CHECKF(gisa_isa_optype_count(emb) == DOCUMENTED[k].optypes, "embedded %s: %zu optypes", name,
                   gisa_isa_optype_count(emb));
        }
        if (st == GISA_OK)
            gisa_isa_free(emb);
        emb = NULL;
    }
    gisa_status st = api_load_embedded(NULL, &emb, d);
    CHECKF(st == GISA_OK, "embedded: status %d", st);
    test_dump_diags(d);
    CHECK(api_load_embedded("no-such-target", &seeds, d) == GISA_ERR_NOTFOUND);

    const char *shared = test_shared_dir();
    if (!shared) {
        printf("skipped: the seed documents (no ../shared/seeds)\n");
    } else {
        char dir[4200];
        snprintf(dir, sizeof dir, "%s/seeds", shared);
        gisa_diags_clear(d);
        st = api_load_dir(dir, NULL, NULL, &seeds, d);
        CHECKF(st == GISA_OK, "seeds: status %d", st);
        test_dump_diags(d);
        /* the transcribed embedded files define the same opcodes */
        CHECKF(gisa_isa_opcode_count(seeds) == gisa_isa_opcode_count(emb), "seeds: %zu opcodes, embedded %zu",
               gisa_isa_opcode_count(seeds), gisa_isa_opcode_count(emb));
        CHECKF(gisa_isa_optype_count(seeds) == gisa_isa_optype_count(emb), "seeds: %zu optypes, embedded %zu",
               gisa_isa_optype_count(seeds), gisa_isa_optype_count(emb));
        size_t missing = 0;
        for (size_t i = 0; i < gisa_isa_opcode_count(seeds); i++)
            missing += api_find_opcode(emb, gisa_isa_opcode_name(seeds, i)) == (size_t)-1;
        CHECKF(missing == 0, "%zu seed opcodes are not in the embedded ISA", missing);
        gisa_isa_free(seeds);
    }
    gisa_isa_free(emb);
    gisa_diags_free(d);
}

/* ---------------------------------------------------------------- files and directories */

static int write_bytes(const char *path, const char *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    int bad = fwrite(data, 1, len, f) != len;
    return fclose(f) || bad ? -1 : 0;
}

static int copy_file(const char *from, const char *to)
{
    FILE *f = fopen(from, "rb");
    if (!f)
        return -1;
    static char buf[1 << 20];
    size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    return n == sizeof buf ? -1 : write_bytes(to, buf, n);
}

static size_t count_notes(const gisa_diags *d, const char *needle)
{
    size_t n = 0;
    for (size_t i = 0; i < gisa_diags_count(d); i++) {
        const gisa_diag *g = gisa_diags_get(d, i);
        n += g->severity == GISA_NOTE && strstr(g->message, "skipped: not an ISA description") &&
             (!needle || strstr(g->file, needle));
    }
    return n;
}

/* gisa_isa_load with paths: files and directories mixed, description files found
 * whatever their names, other files skipped with a note, no opcode an error. */
static void test_load_paths(void)
{
    const char *tmp = getenv("TMPDIR");
    char root[512], p[16][700];
    snprintf(root, sizeof root, "%s/gisa-loader.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(root)) {
        CHECKF(0, "mkdtemp %s failed", root);
        return;
    }
    const char *src_dir = test_path("isa/gisa128");
    char from[600];
    /* dir/: the overlay under its names, dalu under another, prose, binary, a backup, a subdirectory */
    snprintf(p[0], sizeof p[0], "%s/dir", root);
    CHECK(mkdir(p[0], 0700) == 0);
    static const char *const copies[][2] = {
        {"types.isa", "dir/types.isa"}, {"rulings.isa", "dir/rulings.isa"}, {"dalu.isa", "dir/x.md"},
        {"halu.isa", "h.txt"},          {"dalu.isa", "dir/y.isa~"},         {"falu.isa", "f"},
    };
    for (size_t i = 0; i < sizeof copies / sizeof *copies; i++) {
        snprintf(from, sizeof from, "%s/%s", src_dir, copies[i][0]);
        snprintf(p[1], sizeof p[1], "%s/%s", root, copies[i][1]);
        CHECKF(copy_file(from, p[1]) == 0, "copy %s to %s", from, p[1]);
    }
    snprintf(p[1], sizeof p[1], "%s/dir/README", root);
    const char *readme = "About these files: __DefOptype is described in the docs.\n";
    CHECK(write_bytes(p[1], readme, strlen(readme)) == 0);
    snprintf(p[1], sizeof p[1], "%s/dir/data.bin", root);
    CHECK(write_bytes(p[1], "\x7f" "ELF\0\0__DefOptype X\n", 19) == 0);
    snprintf(p[1], sizeof p[1], "%s/dir/.hidden", root);
    CHECK(write_bytes(p[1], "__DefOptype\n", 12) == 0);
    snprintf(p[1], sizeof p[1], "%s/dir/sub", root);
    CHECK(mkdir(p[1], 0700) == 0);
    snprintf(p[2], sizeof p[2], "%s/dir/sub/z.isa", root);
    CHECK(write_bytes(p[2], "__DefOptype\n", 12) == 0);
    snprintf(p[1], sizeof p[1], "%s/f", root);
    snprintf(p[2], sizeof p[2], "%s/h.txt", root);
    snprintf(p[3], sizeof p[3], "%s/ialu.isa", src_dir);

    gisa_diags *d = api_diags();
    gisa_isa *isa = NULL, *emb = test_isa();
    /* mixed: a directory, files named anyhow, a file of the source tree; f named twice */
    const char *mixed[] = {p[0], p[1], p[2], p[3], p[1]};
    gisa_status st = api_load_paths(mixed, 5, NULL, NULL, &isa, d);
    CHECKF(st == GISA_OK, "mixed paths: status %d", st);
    CHECK(gisa_diags_errors(d) == 0 && gisa_diags_warnings(d) == 0);
    CHECK(count_notes(d, NULL) == 2);
    CHECK(count_notes(d, "/dir/README") == 1);
    CHECK(count_notes(d, "/dir/data.bin") == 1);
    CHECK(test_diags_contain(d, "(binary file)"));
    CHECK(test_diags_contain(d, "(no __DefXxx definition)"));
    CHECKF(isa && gisa_isa_opcode_count(isa) == gisa_isa_opcode_count(emb), "mixed: %zu opcodes, embedded %zu",
           isa ? gisa_isa_opcode_count(isa) : 0, gisa_isa_opcode_count(emb));
    CHECK(isa && gisa_isa_optype_count(isa) == gisa_isa_optype_count(emb));
    if (isa) {
        size_t missing = 0;
        for (size_t i = 0; i < gisa_isa_opcode_count(emb); i++)
            missing += api_find_opcode(isa, gisa_isa_opcode_name(emb, i)) == (size_t)-1;
        CHECKF(missing == 0, "%zu embedded opcodes missing", missing);
        /* the tools' tables are built too */
        gisa_word w;
        CHECK(api_asm_one(isa, "DADD R2, R4, R6", &w, d) == GISA_OK);
    }
    gisa_isa_free(isa);
    isa = NULL;
    test_dump_diags(d);

    /* one file, through gisa_isa_load with one path: the embedded overlay completes it */
    gisa_diags_clear(d);
    st = api_load_dir(p[1], NULL, NULL, &isa, d);
    CHECKF(st == GISA_OK, "one file: status %d", st);
    CHECK(isa && api_find_opcode(isa, "FADD_RR") != (size_t)-1 && api_find_opcode(isa, "DADD_RR") == (size_t)-1);
    gisa_isa_free(isa);
    isa = NULL;

    /* no opcode: an empty directory, a comment-only file, only prose */
    snprintf(p[4], sizeof p[4], "%s/empty", root);
    CHECK(mkdir(p[4], 0700) == 0);
    snprintf(p[5], sizeof p[5], "%s/comments.isa", root);
    CHECK(write_bytes(p[5], "// nothing\n\n", 12) == 0);
    snprintf(p[6], sizeof p[6], "%s/comments.txt", root);
    CHECK(write_bytes(p[6], "// nothing\n\n", 12) == 0);
    snprintf(p[7], sizeof p[7], "%s/dir/README", root);
    snprintf(p[8], sizeof p[8], "%s/dir/types.isa", root);
    const char *none[][2] = {{p[4], NULL}, {p[5], NULL}, {p[6], NULL}, {p[7], p[8]}};
    for (size_t k = 0; k < 4; k++) {
        gisa_diags_clear(d);
        isa = (gisa_isa *)1;
        st = api_load_paths(none[k], none[k][1] ? 2 : 1, NULL, NULL, &isa, d);
        CHECKF(st == GISA_ERR_INPUT, "no opcode (%s): status %d", none[k][0], st);
        CHECK(isa == NULL);
        CHECKF(test_diags_contain(d, "no instruction (opcode) defined in ") && test_diags_contain(d, none[k][0]),
               "no opcode (%s): no message", none[k][0]);
    }
    CHECK(count_notes(d, "/dir/README") == 1);

    /* a path that does not exist: an I/O error naming it */
    gisa_diags_clear(d);
    snprintf(p[9], sizeof p[9], "%s/nowhere.txt", root);
    const char *missing[] = {p[1], p[9]};
    isa = (gisa_isa *)1;
    CHECK(api_load_paths(missing, 2, NULL, NULL, &isa, d) == GISA_ERR_IO);
    CHECK(isa == NULL && test_diags_contain(d, "nowhere.txt"));
    /* bad arguments */
    CHECK(api_load_paths(missing, 0, NULL, NULL, &isa, d) == GISA_ERR_USAGE);
    CHECK(api_load_paths(NULL, 1, NULL, NULL, &isa, d) == GISA_ERR_USAGE);
    CHECK(api_load_paths(missing, 1, NULL, NULL, NULL, d) == GISA_ERR_USAGE);
    const char *empty_path[] = {""};
    CHECK(api_load_paths(empty_path, 1, NULL, NULL, &isa, d) == GISA_ERR_USAGE);

    gisa_diags_free(d);
    /* clean up */
    static const char *const files[] = {"dir/types.isa", "dir/rulings.isa", "dir/x.md", "dir/y.isa~", "dir/README",
                                        "dir/data.bin",  "dir/.hidden",     "dir/sub/z.isa", "h.txt", "f",
                                        "comments.isa",  "comments.txt"};
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        snprintf(from, sizeof from, "%s/%s", root, files[i]);
        remove(from);
    }
    static const char *const dirs[] = {"dir/sub", "dir", "empty", ""};
    for (size_t i = 0; i < sizeof dirs / sizeof *dirs; i++) {
        snprintf(from, sizeof from, "%s/%s", root, dirs[i]);
        remove(from);
    }
}

int main(void)
{
    isolated("constructs", test_constructs);
    isolated("CRLF and BOM", test_crlf_bom);
    isolated("extended type", test_extended_type);
    test_errors(); /* one process per case */
    isolated("random inputs", fuzz_random);
    isolated("truncated seed", fuzz_truncations);
    isolated("deep expressions", fuzz_deep_expressions);
    isolated("long flat expression", fuzz_flat_expression);
    isolated("real documents", test_real_documents);
    isolated("files and directories", test_load_paths);
    isolated("added files", test_load_add);
    return test_summary();
}
