#!/usr/bin/env bash
# --isa takes files, directories and ':'-separated lists, and a directory's
# description files are found whatever their names (docs/isa-language.md,
# "Files and loading"): the ISA authors' documents copied under arbitrary
# names give the same model, lint report, reference and encodings as
# `--isa ../shared/seeds`, however they are named. Files that are no
# description are skipped with a note; sources that define no opcode are
# an error; a path that does not exist is a file error naming it.
# Without ../shared, the project's own isa/gisa128 files stand in for the
# documents (the project must not depend on ../shared).
# Env: GISA_BIN (the executable), GISA_SOURCE_DIR (the repository).
source "$(dirname "$0")/lib/harness.bash" isa_files

# the documents (reference directory), their names there, and new names:
# not *.isa, not sorted like the originals
if [ -d "$SRC/../shared/seeds" ]; then
    REF=$SRC/../shared/seeds
    orig=(dalu.isa.txt falu.isa.txt halu.isa.txt ialu.isa.txt)
else
    echo "SKIP (part of this test): the seed documents (no ../shared/seeds): isa/gisa128 under other names stands in"
    REF=$SRC/isa/gisa128
    orig=(dalu.isa falu.isa halu.isa ialu.isa)
fi
new=(001_dd4993e787bb48e4.txt 000_x.txt doc.md ialu)
mkdir docs
for i in 0 1 2 3; do cp "$REF/${orig[$i]}" "docs/${new[$i]}"; done
# the project's types and rulings keep their names (they are recognised by them)
for f in types.isa rulings.isa; do
    if [ -f "$REF/$f" ]; then cp "$REF/$f" docs/; fi
done
D=$T/docs

# norm FILE: paths and new names back to the reference's names, load notes dropped
norm() {
    local args=(-e "s#$REF/##g" -e "s#$D/##g" -e "s#(^|[ (])docs2/#\\1#g" -e 's/^(loaded [0-9]+ opcodes \([0-9]+ optypes\)) from .*/\1/')
    for i in 0 1 2 3; do args+=(-e "s#(^|[ (])${new[$i]//./\\.}:#\\1${orig[$i]}:#g"); done
    sed -E "${args[@]}" "$1" | grep -v ': note: skipped: not an ISA description' || true
}

# everything a load shows: lint (stdout and stderr), the list of optypes and
# opcodes and the reference of every optype, a few lines assembled and disassembled back
cat >prog.s <<'ASM'
FADD R5, R6, R7
FFMA.FTZ R1, -R2, |R3|, R4
DADD R[2:3], R[4:5], c[0x2][0x10]
HFMA2 R1, R2.H1_H1, R3, R4
IMAD.WIDE R[2:3], R4, 0x10, R[6:7]
LOP3 R1, R2, R3, R4, 0xe8, !PT
ASM
snapshot() { # snapshot NAME ISA-ARGS...
    local name=$1
    shift
    local rc=0
    "$G" lint "$@" >"$name.lint" 2>"$name.lint.err" || rc=$?
    echo "exit $rc" >>"$name.lint"
    # the list follows the order of the files (so of their names): compared as a set
    { "$G" doc "$@" 2>/dev/null || echo "doc: exit $?"; } | sort >"$name.doc"
    # then the reference of every optype (syntax, modifiers, operands, its opcodes)
    for op in $("$G" doc "$@" 2>/dev/null | awk '/^[A-Z]/ { print $1 }' | sort -u); do
        "$G" doc "$@" "$op" >>"$name.doc" 2>&1 || echo "doc $op: exit $?" >>"$name.doc"
    done
    "$G" as "$@" --format hex -o "$name.hex" prog.s 2>"$name.as.err" || echo "as: exit $?" >>"$name.as.err"
    "$G" dis "$@" --format hex "$name.hex" >"$name.dis" 2>&1 || echo "dis: exit $?" >>"$name.dis"
    for f in "$name".*; do norm "$f" >"$f.n"; done
}
same() { # same NAME: its snapshot is the reference's
    local f ok=1
    for f in lint lint.err doc hex dis as.err; do
        if ! cmp -s "ref.$f.n" "$1.$f.n"; then
            ok=0
            bad "$1: $f differs from --isa $REF"
            diff "ref.$f.n" "$1.$f.n" | head -5 >&2 || true
        fi
    done
    if [ $ok = 1 ]; then ok; fi
}

snapshot ref --isa "$REF"
check "the reference loads" has ref.lint "^exit 0$"
check "the reference lints" has ref.lint "^lint: 0 errors"
check "the reference assembles" test -s ref.hex
check "the reference disassembles" has ref.dis "FADD R5, R6, R7"

snapshot asdir --isa "$D"
same asdir
snapshot asfiles --isa "$D/${new[0]}" --isa "$D/${new[1]}" --isa "$D/${new[2]}" --isa "$D/${new[3]}" \
    $(for f in types.isa rulings.isa; do if [ -f "$D/$f" ]; then echo "--isa $D/$f"; fi; done)
same asfiles
list=$D/${new[0]}:$D/${new[1]}:$D/${new[2]}:$D/${new[3]}
for f in types.isa rulings.isa; do if [ -f "$D/$f" ]; then list+=:$D/$f; fi; done
snapshot aslist --isa "$list"
same aslist
GISA_ISA=$list snapshot asenv
same asenv
# a file named twice, or named and in a named directory, is read once
snapshot twice --isa "$D" --isa "$D/ialu" --isa "$D/${new[0]}:$D"
same twice

# files beside the documents that are no description: skipped with a note
cp -r docs docs2
printf '# The ISA documents\n\nSee __DefOptype in ialu.\n' >docs2/README.md
printf '\0\1\2binary\n__DefOptype X : [ALL]\n' >docs2/image.bin
printf 'caf\351 __DefOptype\n' >docs2/latin1.txt
: >docs2/empty
if truncate -s 17M docs2/big.pdf 2>/dev/null; then :; else head -c 17825792 /dev/zero >docs2/big.pdf; fi
printf '__DefOptype BOGUS\n' >docs2/notes.txt~      # backups and hidden files: silently left out
printf '__DefOptype BOGUS\n' >docs2/.hidden
mkdir docs2/sub && printf '__DefOptype BOGUS\n' >docs2/sub/x.isa # no recursion
run "$G" lint --isa docs2
check "README beside the documents: loads" test "$rc" -eq 0
check "README: skipped with a note" has err "^docs2/README.md: note: skipped: not an ISA description \(no __DefXxx definition\)$"
check "binary: skipped with a note" has err "^docs2/image.bin: note: skipped: not an ISA description \(binary file\)$"
check "latin-1: skipped with a note" has err "^docs2/latin1.txt: note: skipped: not an ISA description \(not UTF-8 text\)$"
check "empty: skipped with a note" has err "^docs2/empty: note: skipped: not an ISA description \(empty file\)$"
check "backups, hidden files, subdirectories: left out silently" hasnt err "notes|hidden|sub"
check "over 16 MiB: skipped with a note" has err "^docs2/big.pdf: note: skipped: not an ISA description \(larger than the 16 MiB limit"
check "only the notes" test "$(grep -c ': note: ' err)" -eq 5
check "same lint report" cmp -s <(norm out; echo "exit $rc") ref.lint.n
# a file that looks like a description but has errors is an error
printf '__DefOptype\n' >docs2/zz.txt
expect 1 "a description with errors: exit 1" "$G" lint --isa docs2
check "a description with errors: located" has err "^docs2/zz.txt:1:"
# *.isa files are read as descriptions, whatever they hold
printf '\0' >docs2/zz.txt
mv docs2/zz.txt docs2/zz.isa
expect 1 "binary *.isa: exit 1" "$G" lint --isa docs2
check "binary *.isa: an error" has err "^docs2/zz.isa:1:.*error: NUL byte"

# no opcode: an error, never 'loaded 0 opcodes'
mkdir empty
expect 1 "empty directory: exit 1" "$G" lint --isa empty
check "empty directory: says so" has err "error: no instruction \(opcode\) defined in empty"
check "empty directory: no load report" hasnt out "loaded 0"
printf '// only a comment\n\n// and another\n' >comments.isa
cp comments.isa comments.txt
for f in comments.isa comments.txt; do
    expect 1 "comment-only $f: exit 1" "$G" lint --isa $f
    check "comment-only $f: says so" has err "error: no instruction \(opcode\) defined in $f"
    check "comment-only $f: no load report" hasnt out "loaded 0"
done
check "comment-only .txt: skipped with a note" has err "^comments.txt: note: skipped"
mkdir prose
cp docs2/README.md docs2/image.bin prose/
expect 1 "directory of non-descriptions: exit 1" "$G" lint --isa prose
check "directory of non-descriptions: notes" test "$(grep -c ': note: skipped' err)" -eq 2
check "directory of non-descriptions: says so" has err "no instruction \(opcode\) defined in prose"
if [ -f "$REF/types.isa" ]; then
    expect 1 "types and rulings only: exit 1" "$G" lint --isa "$D/types.isa" --isa "$D/rulings.isa"
    check "types and rulings only: says so" has err "no instruction \(opcode\) defined in"
fi
for c in doc as dis run; do
    expect 1 "$c --isa empty: exit 1" "$G" $c --isa empty
done

# a path that does not exist: a file error naming it
expect 2 "nonexistent path: exit 2" "$G" lint --isa "$D:nowhere.txt"
check "nonexistent path: named" has err "cannot open nowhere.txt: No such file or directory"
check "nonexistent path: nothing loaded" hasnt out "loaded"
expect 2 "nonexistent repeated path: exit 2" "$G" lint --isa "$D" --isa nowhere/
check "nonexistent repeated path: named" has err "nowhere/"
expect 2 "--isa ':' is no path" "$G" lint --isa :
check "--isa ':': says so" has err "needs a file or directory"
expect 2 "--isa '': no path" "$G" lint --isa ""

finish
