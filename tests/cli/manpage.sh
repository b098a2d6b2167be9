#!/usr/bin/env bash
# docs/gisa.1 matches the program: every command of `gisa --help` has its
# section (.SS "gisa CMD"), every option a command's `--help` lists under
# "Options:" is described in that section, every common option in COMMON
# OPTIONS; an option the page describes (a .TP entry) that the help no
# longer lists is stale; the version in .TH is `gisa --version`'s. When groff
# (or man) is installed, the page must render without a warning.
# Env: GISA_BIN (the executable), GISA_SOURCE_DIR (the repository).
source "$(dirname "$0")/lib/harness.bash" manpage

MAN=$SRC/docs/gisa.1
check "docs/gisa.1 exists" test -s "$MAN"

# The page as plain text: troff's \- is -, no font changes.
sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' -e 's/\\f([A-Z][A-Z]//g' -e 's/\\&//g' \
    -e "s/\\\\(aq/'/g" "$MAN" >man.txt

# section HEADING: the lines of the section that starts with HEADING (a
# .SS or .SH line) up to the next .SS/.SH
section() {
    awk -v h="$1" '$0 == h { on = 1; next } on && /^\.S[SH]( |$)/ { exit } on' man.txt
}
# help_options BLOCK < help: the options of the help's BLOCK ("Options:",
# "Common options..."), one per line: -o, --output, ...
help_options() {
    awk -v b="$1" 'index($0, b) == 1 { on = 1; next } on && /^$/ { exit }
        on && /^ +-/ { sub(/^ +/, ""); split($0, f, /   +/); print f[1] }' |
        { grep -oE -- '(^|[ ,])--?[a-zA-Z][a-zA-Z0-9-]*' || true; } | tr -d ' ,' | sort -u
}
# described OPT FILE: OPT is a word of FILE (not the prefix of a longer option)
described() { grep -qE -- "(^|[^a-zA-Z0-9-])$1([^a-zA-Z0-9-]|$)" "$2"; }
# tp_options FILE: the options that the .TP entries of a section describe
tp_options() {
    awk 'prev == ".TP" { print } { prev = $1 }' "$1" |
        { grep -oE -- '(^|[ ,"])--?[a-zA-Z][a-zA-Z0-9-]*' || true; } | tr -d ' ,"' | sort -u
}

expect 0 "gisa --help" "$G" --help
cp out help.txt
commands=$(awk '/^Commands:/ { on = 1; next } on && /^$/ { exit } on { print $1 }' help.txt)
check "gisa --help lists commands" test -n "$commands"

section '.SH "COMMON OPTIONS"' >common.txt
[ -s common.txt ] || section '.SH COMMON OPTIONS' >common.txt
check "COMMON OPTIONS section" test -s common.txt
help_options "Common options" <help.txt >common_opts
check "gisa --help lists common options" test -s common_opts
while read -r opt; do
    if described "$opt" common.txt; then ok; else bad "common option $opt not in COMMON OPTIONS of docs/gisa.1"; fi
done <common_opts
for opt in $(tp_options common.txt); do
    if grep -qx -- "$opt" common_opts; then ok; else bad "docs/gisa.1 describes common option $opt, gisa --help does not list it"; fi
done

for cmd in $commands; do
    section ".SS \"gisa $cmd\"" >"sec_$cmd"
    if [ -s "sec_$cmd" ]; then ok; else bad "command $cmd has no section (.SS \"gisa $cmd\") in docs/gisa.1"; fi
    if described "gisa $cmd" man.txt; then ok; else bad "command $cmd not in docs/gisa.1"; fi
    [ "$cmd" = help ] && continue # `gisa help CMD` is `gisa CMD --help`
    expect 0 "gisa $cmd --help" "$G" "$cmd" --help
    cp out "help_$cmd"
    help_options "Options:" <"help_$cmd" >"opts_$cmd"
    while read -r opt; do
        if described "$opt" "sec_$cmd"; then ok; else bad "option $opt of gisa $cmd not in its section of docs/gisa.1"; fi
    done <"opts_$cmd"
    for opt in $(tp_options "sec_$cmd"); do
        if grep -qx -- "$opt" "opts_$cmd"; then ok; else bad "docs/gisa.1 describes $opt of gisa $cmd, its --help does not list it"; fi
    done
    # the common options a command's help shows are the program's
    help_options "Common options" <"help_$cmd" >"common_$cmd"
    check "gisa $cmd --help has the common options of gisa --help" cmp -s "common_$cmd" common_opts
done

expect 0 "gisa --version" "$G" --version
check ".TH names the program's version" test "$(awk '$1 == ".TH" { print }' "$MAN" | grep -oE '"gisa [0-9][^"]*"' | tr -d '"')" = "$(cat out)"

# Rendering: no warning from groff (all warnings on) or man.
if command -v groff >/dev/null 2>&1; then
    run groff -man -Tutf8 -ww -z "$MAN"
    if [ "$rc" -eq 0 ] && [ ! -s err ]; then ok; else bad "groff -man -ww warns about docs/gisa.1"; fi
elif command -v man >/dev/null 2>&1; then
    rc=0
    MANWIDTH=80 man --warnings -l "$MAN" >out 2>err || rc=$?
    if [ "$rc" -eq 0 ] && [ ! -s err ]; then ok; else bad "man --warnings -l warns about docs/gisa.1"; fi
else
    ci_skip_part "rendering check of docs/gisa.1 (neither groff nor man installed)"
fi

finish
