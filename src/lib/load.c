/* The library's loaders: the model (src/spec), then each tool's own tables
 * compiled from it (the disassembler's print plans, the assembler's
 * candidate tables). The only file that knows every layer: the model does
 * not know its consumers, and they do not know each other. */
#include "asm/asm.h"
#include "common/diag.h"
#include "disasm/disasm.h"
#include "docsem/docsem.h"
#include "spec/load.h"

static gisa_status with_tools(gisa_status st, gisa_isa **out, gisa_diags *diags)
{
    if (st != GISA_OK)
        return st;
    /* pseudo-code that does not parse is a warning here (the optype does
     * not run under the doc engine) and an error of gisa lint */
    ds_model_build(*out, GISA_WARNING, diags);
    if (disasm_plan_build(*out) || asm_plan_build(*out) || !(*out)->docsem) {
        diag_add(diags, GISA_ERROR, NULL, "out of memory loading the ISA description");
        gisa_isa_free(*out);
        *out = NULL;
        return GISA_ERR_NOMEM;
    }
    return GISA_OK;
}

gisa_status gisa_isa_load_sources(const gisa_source *files, size_t n, gisa_isa **out, gisa_diags *diags)
{
    return with_tools(spec_load_sources(files, n, out, diags), out, diags);
}

gisa_status gisa_isa_load_embedded(const char *target, gisa_isa **out, gisa_diags *diags)
{
    return with_tools(spec_load_embedded(target, out, diags), out, diags);
}

gisa_status gisa_isa_load_dir(const char *dir, const char *overlay_dir, const char *target, gisa_isa **out,
                              gisa_diags *diags)
{
    return with_tools(spec_load_dir(dir, overlay_dir, target, out, diags), out, diags);
}

gisa_status gisa_isa_load_paths(const char *const *paths, size_t n, const char *overlay_dir, const char *target,
                                gisa_isa **out, gisa_diags *diags)
{
    return with_tools(spec_load_paths(paths, n, overlay_dir, target, out, diags), out, diags);
}
