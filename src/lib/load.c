/* The library's loaders: the model (src/spec), then each tool's own tables
 * compiled from it (the disassembler's print plans, the assembler's
 * candidate tables). The only file that knows every layer: the model does
 * not know its consumers, and they do not know each other. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "common/fpenv.h"
#include "asm/asm.h"
#include "common/diag.h"
#include "disasm/disasm.h"
#include "docsem/docsem.h"
#include "sim/fingerprint.h"
#include "spec/load.h"

static gisa_status with_tools(gisa_status st, gisa_isa **out, gisa_diags *diags)
{
    if (st != GISA_OK)
        return st;
    /* the tools' services to the layers below them (spec/model.h) */
    (*out)->tools = (isa_services){gisa_assemble, gisa_disassemble, gisa_print, sim_lint_fingerprints};
    /* pseudo-code that does not parse is a warning here (the optype does
     * not run under the doc engine) and an error of gisa lint */
    ds_model_build(*out, GISA_WARNING, diags);
    arena *a = &(*out)->a;
    /* ds_model_build said at which optype it stopped (not when it made no model at all) */
    int in_docsem = (*out)->docsem && (a->failed || arena_over(a));
    if (in_docsem || disasm_plan_build(*out) || asm_plan_build(*out) || !(*out)->docsem || arena_over(a)) {
        int limit = !a->failed && arena_over(a);
        if (!in_docsem && !limit)
            diag_add(diags, GISA_ERROR, NULL, "out of memory loading the ISA description");
        else if (!in_docsem)
            diag_memory_limit(diags, NULL, a->limit);
        gisa_isa_free(*out);
        *out = NULL;
        return limit ? GISA_ERR_LIMIT : GISA_ERR_NOMEM;
    }
    return GISA_OK;
}

/* Another target whose types and rulings make the descriptions load
 * without errors, or NULL. */
static const char *fitting_target(const char *const *paths, size_t n, const char *const *add, size_t nadd,
                                  const char *target, size_t max_memory)
{
    for (size_t i = 0; i < gisa_target_count(); i++) {
        const char *t = gisa_target_name(i);
        if (!strcmp(t, target))
            continue;
        gisa_diags *scratch = diags_alloc();
        gisa_isa *isa = NULL;
        gisa_status st = scratch ? spec_load_paths(paths, n, add, nadd, NULL, t, max_memory, &isa, scratch) : GISA_ERR_NOMEM;
        gisa_isa_free(isa);
        gisa_diags_free(scratch);
        if (st == GISA_OK)
            return t;
    }
    return NULL;
}

/* paths (none: the embedded descriptions of target), then add. */
static gisa_status load_files(const char *const *paths, size_t n, const char *const *add, size_t nadd,
                              const char *overlay_dir, const char *target, size_t max_memory, gisa_isa **out,
                              gisa_diags *diags)
{
    /* files added to a target's own descriptions are for that target */
    gisa_diags *mine = overlay_dir || !diags || !n ? NULL : diags_alloc();
    if (!mine)
        return with_tools(spec_load_paths(paths, n, add, nadd, overlay_dir, target, max_memory, out, diags), out,
                          diags);
    /* descriptions written for another target fail with one error per
     * definition (their groups' parents are that target's): say so once */
    gisa_status st = spec_load_paths(paths, n, add, nadd, NULL, target, max_memory, out, mine);
    const char *name = target ? target : "gisa128";
    const char *fits =
        st == GISA_ERR_INPUT && gisa_diags_errors(mine) ? fitting_target(paths, n, add, nadd, name, max_memory) : NULL;
    if (fits) {
        diag_copy(diags, mine, GISA_NOTE); /* the files skipped */
        const gisa_diag *first = NULL;
        for (size_t i = 0; i < gisa_diags_count(mine) && !first; i++)
            if (gisa_diags_get(mine, i)->severity == GISA_ERROR)
                first = gisa_diags_get(mine, i);
        diag_add(diags, GISA_ERROR, NULL,
                 "these descriptions are not for target '%s' (%zu errors, the first: %s:%d: %s); they load without errors as target '%s' (--target %s)",
                 name, gisa_diags_errors(mine), first ? first->file : "", first ? first->line : 0, first ? first->message : "", fits, fits);
        gisa_diags_free(mine);
        return GISA_ERR_INPUT;
    }
    diag_copy(diags, mine, GISA_ERROR);
    gisa_diags_free(mine);
    return with_tools(st, out, diags);
}

/* What max_memory 0 means: 4 GiB, the gisa program's default too (all of
 * the address space where size_t has 32 bits). */
#define DEFAULT_MAX_MEMORY (SIZE_MAX > 0xffffffffu ? (size_t)0x100000000u : SIZE_MAX)

/* Options of any size the caller's header gave: the fields this library
 * knows, the others left at their defaults (API 1.0's struct ends before
 * max_memory). */
static gisa_status isa_load_unguarded(const gisa_load_options *opt, gisa_isa **out, gisa_diags *diags)
{
    if (!out)
        return GISA_ERR_USAGE;
    *out = NULL;
    gisa_load_options o = GISA_LOAD_OPTIONS_INIT;
    if (opt) {
        if (opt->size < offsetof(gisa_load_options, max_memory))
            return GISA_ERR_USAGE;
        /* whole fields only: API 1.0's, or all this library knows */
        memcpy(&o, opt, opt->size < sizeof o ? offsetof(gisa_load_options, max_memory) : sizeof o);
    }
    size_t mem = o.max_memory ? o.max_memory : DEFAULT_MAX_MEMORY;
    if (o.sources || o.nsources) {
        if (!o.sources || o.npaths || o.nadd)
            return GISA_ERR_USAGE;
        return with_tools(spec_load_sources(o.sources, o.nsources, mem, out, diags), out, diags);
    }
    if ((o.npaths && !o.paths) || (o.nadd && !o.add))
        return GISA_ERR_USAGE;
    if (!o.npaths && !o.nadd)
        return with_tools(spec_load_embedded(o.target, mem, out, diags), out, diags);
    return load_files(o.paths, o.npaths, o.add, o.nadd, o.overlay_dir, o.target, mem, out, diags);
}

gisa_status gisa_isa_load(const gisa_load_options *opt, gisa_isa **out, gisa_diags *diags)
{
    FPENV_RETURN(gisa_status, isa_load_unguarded(opt, out, diags));
}
