#!/usr/bin/env bash
# The layering of src/ (README: the model knows no tool, the tools know no
# other tool): every #include of a file under src/ is resolved the way the
# compiler does (the including file's directory first, then src/ as the
# build's -I; a header that does not exist counts by its first path
# component) and these directions are refused:
#   src/spec, src/common      -> src/asm, src/disasm, src/sim, src/gen, src/manual, src/cli, src/lib, src/dpi, src/cov
#   src/common                -> src/spec, src/fp
#   src/fp                    -> anything but src/common (soft-float: the bottom but one)
#   src/spec, src/common      -> src/docsem
#   src/docsem                -> src/asm, src/disasm, src/sim, src/gen, src/manual, src/cli, src/lib, src/dpi, src/cov
#   src/asm, src/disasm, src/sim, src/gen -> each other, src/manual, src/cli, src/lib, src/dpi, src/cov
#   (src/sim may use src/docsem, the interpreter of the documents' pseudo-code)
#   src/cov                   -> src/asm, src/disasm, src/sim, src/gen, src/manual, src/cli, src/lib, src/dpi, src/docsem
#   src/manual                -> src/gen, src/cov, src/lib, src/dpi, src/lsp, src/cli, src/prove
#   src/prove                 -> src/gen, src/cov, src/manual, src/lib, src/dpi, src/lsp, src/cli
#   src/lib                   -> src/dpi, src/lsp, src/cli
#   src/dpi, src/lsp          -> each other, src/cli
# (src/gen, the random program generator, sits beside the tools: it reads
# the model and calls the others through include/gisa.h only; so does
# src/cov, functional coverage, a user of the model and the public API.)
# These follow the layers the build links (README, "How it fits together";
# CMakeLists.txt, GISA_LAYER_GRAPH, checks the calls):
#   common <- fp <- spec <- docsem <- asm | disasm | sim <- gen | cov | manual | prove <- lib <- dpi | lsp <- cli
# with src/gen and src/cov kept to the public header for the tools below
# them. src/manual (the HTML manual) may include the model and the tools
# below it; src/dpi (the DPI-C wrapper, over the public API) and src/lsp (the language
# server) anything but src/cli and each other; src/cli anything. Prints each offending line
# (file:line: the directive) and exits 1; exits 0 when there is none.
# Usage: include_direction.sh [TREE]  (default: $GISA_SOURCE_DIR, else the
# repository holding this script). No other environment is needed.
set -euo pipefail

ROOT=${1:-${GISA_SOURCE_DIR:-$(dirname "$0")/../..}}
ROOT=$(cd "$ROOT" && pwd)
SRC=$ROOT/src
[ -d "$SRC" ] || { echo "include_direction: no src/ in $ROOT" >&2; exit 2; }

# forbidden FROM TO: true when module FROM must not include module TO
forbidden() {
    local from=$1 to=$2
    [ "$from" = "$to" ] && return 1
    case $from in
    spec) [[ $to =~ ^(asm|disasm|sim|gen|manual|cli|lib|dpi|lsp|docsem|cov|prove)$ ]] ;;
    common) [[ $to =~ ^(asm|disasm|sim|gen|manual|cli|lib|dpi|lsp|spec|docsem|cov|fp|prove)$ ]] ;;
    fp) [ "$to" != common ] ;;
    docsem) [[ $to =~ ^(asm|disasm|sim|gen|manual|cli|lib|dpi|lsp|cov|prove)$ ]] ;;
    asm | disasm | gen) [[ $to =~ ^(asm|disasm|sim|gen|manual|cli|lib|dpi|lsp|docsem|cov|prove)$ ]] ;;
    sim) [[ $to =~ ^(asm|disasm|sim|gen|manual|cli|lib|dpi|lsp|cov|prove)$ ]] ;;
    cov) [[ $to =~ ^(asm|disasm|sim|gen|manual|cli|lib|dpi|lsp|docsem|prove)$ ]] ;;
    manual) [[ $to =~ ^(gen|cov|lib|dpi|lsp|cli|prove)$ ]] ;;
    prove) [[ $to =~ ^(gen|cov|manual|lib|dpi|lsp|cli)$ ]] ;;
    lib) [[ $to =~ ^(dpi|lsp|cli)$ ]] ;;
    dpi) [[ $to =~ ^(lsp|cli)$ ]] ;;
    lsp) [[ $to =~ ^(dpi|cli)$ ]] ;;
    *) return 1 ;;
    esac
}

# normalize PATH: sets NORM to PATH without "." and with ".." segments
# resolved (no file access, no subshell)
normalize() {
    local IFS=/ part out=()
    for part in $1; do
        case $part in
        '' | .) ;;
        ..) [ ${#out[@]} -gt 0 ] && unset 'out[${#out[@]}-1]' ;;
        *) out+=("$part") ;;
        esac
    done
    NORM="/${out[*]-}"
}

# module_of DIR NAME QUOTED: sets MODULE to the src/ module (first directory
# below src/) that `#include NAME` from a file in DIR refers to, or to ""
# (a system or public header)
module_of() {
    local dir=$1 name=$2 quoted=$3
    NORM=""
    if [ "$quoted" = 1 ] && [ -e "$dir/$name" ]; then
        normalize "$dir/$name"
    elif [ -e "$SRC/$name" ]; then
        normalize "$SRC/$name"
    elif [[ $name == */* ]]; then
        normalize "$SRC/$name" # not there: judged by its name
    fi
    MODULE=""
    case $NORM in
    "$SRC"/*/*)
        MODULE=${NORM#"$SRC"/}
        MODULE=${MODULE%%/*}
        ;;
    esac
}

bad=0 checked=0
while IFS= read -r -d '' file; do
    rel=${file#"$SRC"/}
    from=${rel%%/*}
    [[ $from =~ ^(spec|common|fp|asm|disasm|sim|gen|docsem|cov|manual|lib|dpi)$ ]] || continue
    dir=$(dirname "$file")
    lineno=0
    while IFS= read -r line || [ -n "$line" ]; do
        lineno=$((lineno + 1))
        [[ $line =~ ^[[:space:]]*#[[:space:]]*include[[:space:]]*([\"\<])([^\"\>]+)[\"\>] ]] || continue
        checked=$((checked + 1))
        quoted=0
        [ "${BASH_REMATCH[1]}" = '"' ] && quoted=1
        module_of "$dir" "${BASH_REMATCH[2]}" "$quoted"
        to=$MODULE
        if [ -n "$to" ] && forbidden "$from" "$to"; then
            echo "src/$rel:$lineno: $line    (src/$from must not include src/$to)"
            bad=$((bad + 1))
        fi
    done <"$file"
done < <(find "$SRC" -type f -print0 | sort -z)

if [ "$bad" -gt 0 ]; then
    echo "include_direction: $bad forbidden include(s) of $checked" >&2
    exit 1
fi
echo "include_direction: $checked includes, none against the layering"
