#!/usr/bin/env bash
# compare_outputs.sh: a re-runnable "no behaviour change" check.
#
# usage: scripts/compare_outputs.sh [REF [NEW_BUILD_DIR]]
#
#   REF            git revision to compare against (default: main)
#   NEW_BUILD_DIR  build directory holding the `gisa` under test (default: build/
#                  of this tree). A directory with a CMakeCache.txt is brought up
#                  to date (`cmake --build DIR --target gisa`); a missing one is
#                  configured from this tree (Release) and built.
#
# REF is extracted with `git archive` into /tmp/gisa-ref-<rev12>/ and built there
# (Release, in build-compare/; reused when already built). The outputs of both
# `gisa` programs (stdout, stderr, exit status, trace files) are then compared
# byte for byte, on both targets, over:
#   as   examples/*.s, every fuzz corpus file (as is and without its first,
#        target-choosing byte), the golden listing's text column, the 1,000,000
#        line program bench/asm_bench generates, and randomly mutated lines
#        (errors compared; the mutated lines that still assemble, assembled);
#   dis  1,000,000 generated words per target (valid words with bits flipped or
#        fields randomised, and fully random words) with several option sets,
#        the assembled inputs above, every fuzz corpus file (bin and hex), the
#        golden listing's hex column;
#   run  examples (with their state files), fuzz corpus states and programs,
#        random straight-line programs of valid lines on random states with
#        --warps 2 and --trace (one of them faulting);
#   lint, doc (the list and every optype and opcode name), lint --isa ../shared/seeds.
#
# Prints one line per comparison group, `same: ...` or `DIFFERENT: ...` followed
# by the first difference; exits 0 when everything is the same, 1 when anything
# differs, 2 when the comparison could not be set up (bad REF, failed build).
# Environment: JOBS (build parallelism, default 2), SEED (random inputs, default
# 20240611), KEEP=1 (keep the temporary directory and print its name).
# Needs bash, coreutils, git, cmake and python3 (standard library only).

set -u -o pipefail
export LC_ALL=C

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
REF=${1:-main}
NEW=${2:-$REPO/build}
JOBS=${JOBS:-2}
SEED=${SEED:-20240611}
TMO=300 # seconds for any one gisa run

die() { echo "compare_outputs: $*" >&2; exit 2; }
case "${1:-}" in -h | --help) sed -n '2,/^$/s/^# \{0,1\}//p' "$0"; exit 0 ;; esac
[ $# -le 2 ] || die "usage: $0 [REF [NEW_BUILD_DIR]]"
command -v python3 >/dev/null || die "python3 is needed"
command -v cmake >/dev/null || die "cmake is needed"

START=$(date +%s)

# ---------------------------------------------------------------- the reference
rev=$(git -C "$REPO" rev-parse --verify --quiet "$REF^{commit}") || die "unknown revision '$REF'"
REFSRC=/tmp/gisa-ref-${rev:0:12}
REFBUILD=$REFSRC/build-compare
if [ ! -f "$REFBUILD/.compare-built" ]; then
    if [ ! -f "$REFSRC/.compare-extracted" ]; then
        rm -rf "$REFSRC"
        mkdir -p "$REFSRC" || die "cannot create $REFSRC"
        git -C "$REPO" archive "$rev" | tar -x -C "$REFSRC" || die "git archive $rev failed"
        echo "$rev" >"$REFSRC/.compare-extracted"
    fi
    echo "building reference $REF (${rev:0:12}) in $REFBUILD ..." >&2
    { cmake -S "$REFSRC" -B "$REFBUILD" -DCMAKE_BUILD_TYPE=Release -DGISA_WERROR=OFF &&
        cmake --build "$REFBUILD" --target gisa -j"$JOBS"; } >"$REFSRC/build.log" 2>&1 ||
        die "building the reference failed (see $REFSRC/build.log)"
    # The generator of the large program; older revisions may lack it.
    cmake --build "$REFBUILD" --target bench_asm_bench -j"$JOBS" >>"$REFSRC/build.log" 2>&1 || true
    touch "$REFBUILD/.compare-built"
fi
REFG=$REFBUILD/gisa
[ -x "$REFG" ] || die "no $REFG"

# ---------------------------------------------------------------- the program under test
case "$NEW" in /*) ;; *) NEW=$PWD/$NEW ;; esac
if [ -f "$NEW/CMakeCache.txt" ]; then
    cmake --build "$NEW" --target gisa -j"$JOBS" >/dev/null 2>"$NEW/compare-build.err" ||
        die "building $NEW failed (see $NEW/compare-build.err)"
    rm -f "$NEW/compare-build.err"
elif [ ! -x "$NEW/gisa" ]; then
    echo "building $REPO into $NEW ..." >&2
    { cmake -S "$REPO" -B "$NEW" -DCMAKE_BUILD_TYPE=Release &&
        cmake --build "$NEW" --target gisa -j"$JOBS"; } >/dev/null 2>&1 || die "building $NEW failed"
fi
NEWG=$NEW/gisa
[ -x "$NEWG" ] || die "no $NEWG"

T=$(mktemp -d /tmp/gisa-compare.XXXXXX) || die "mktemp failed"
if [ "${KEEP:-0}" = 1 ]; then
    trap 'echo "kept $T" >&2' EXIT
else
    trap 'rm -rf "$T"' EXIT
fi
trap 'exit 130' INT TERM HUP
IN=$T/in
mkdir -p "$IN"
echo "reference: $REF (${rev:0:12}) $REFG" >&2
echo "new:       $NEWG" >&2

# ---------------------------------------------------------------- input generators
cat >"$T/gen.py" <<'PYEOF'
import random, re, sys

def words(args):
    """words POOL WIDTH N SEED BIN HEX: N words of WIDTH bytes, made from the
    valid words of POOL (bits flipped, fields randomised) and fully random."""
    pool_file, width, n, seed, out_bin, out_hex = args
    width, n = int(width), int(n)
    r = random.Random(int(seed))
    data = open(pool_file, 'rb').read()
    pool = [int.from_bytes(data[i:i + width], 'little') for i in range(0, len(data) - width + 1, width)]
    bits = width * 8
    full = (1 << bits) - 1
    if not pool:
        pool = [0]
    out = bytearray()
    hx = []
    for i in range(n):
        w = pool[r.randrange(len(pool))]
        k = r.random()
        if k < 0.10:
            pass                                   # a valid word as it is
        elif k < 0.40:
            for _ in range(r.randint(1, 3)):       # a few bits flipped
                w ^= 1 << r.randrange(bits)
        elif k < 0.80:                             # one field-sized range randomised
            for _ in range(r.randint(1, 2)):
                start = r.randrange(bits)
                length = min(r.randint(1, 24), bits - start)
                mask = ((1 << length) - 1) << start
                w = (w & ~mask) | (r.getrandbits(bits) & mask)
        elif k < 0.90:                             # all but the low 12 bits random
            w = (w & 0xfff) | (r.getrandbits(bits) & ~0xfff & full)
        else:
            w = r.getrandbits(bits)                # fully random
        out += w.to_bytes(width, 'little')
        hx.append(format(w, '0%dx' % (2 * width)))
    open(out_bin, 'wb').write(out)
    open(out_hex, 'w').write('\n'.join(hx) + '\n')

NUM = re.compile(r'0x[0-9a-fA-F]+|\d+(\.\d+)?(e[-+]?\d+)?')
REG = re.compile(r'\b(U?R\d+|U?RZ|U?P\d|U?PT)\b')
MOD = re.compile(r'\.[A-Z0-9_]+')
INTERESTING = ['0', '1', '-1', '7', '31', '32', '255', '256', '999', '0x0', '0xff', '0x100', '0xffff',
               '0x10000', '0x7fffffff', '0x80000000', '0xffffffff', '0x100000000', '-0x80000000',
               '0xffffffffffffffff', '0x10000000000000000', '18446744073709551616', '1e999', '-1e-999',
               '0.5', '-0.0', '1.5e38', '3.4028236e38', 'inf', '-inf', 'nan', 'NaN', '0f7fc00000',
               '0f3f800000', '0h7c00', '0h3c00', '0d3ff0000000000000', '0x1p3', '1.', '.5', '0b101', '012']
REGS = ['R0', 'R1', 'R254', 'R255', 'R256', 'R999', 'RZ', 'UR0', 'UR62', 'UR63', 'URZ', 'P0', 'P6', 'P7',
        'PT', '!PT', 'UP0', 'UP7', 'UPT', 'R[2:3]', 'R[3:4]', 'c[0x0][0x0]', 'c[0x40][0x10]',
        'c[0x1f][0xfffc]', 'c[0x0][0x10000]', 'c[0x3][0x102]', '-R1', '|R2|', '-|R3|', '~R4', '!P1']
GUARDS = ['@P0 ', '@!P3 ', '@PT ', '@!PT ', '@P7 ', '@UP1 ', '@R1 ', '@ ', '@!', '@@P0 ']
SCHED = [' $sched=0', ' $sched=15', ' $sched=16', ' $req=1', ' $req=63', ' $req=64', ' $wsb=1',
         ' $wsb=0x3f', ' $foo=1', ' $req', ' $req=-1', ' ;', ' ; ;', ' // comment', ' ; FADD R1, R2, R3']
CHARS = ('abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'
         '.,[]|-~!@;:{}()+_ $#\'"\t\\?<>=%&^`/')

def mutate_line(line, r, mnems, mods):
    for _ in range(r.randint(1, 3)):
        op = r.randrange(14)
        n = len(line)
        if op == 0 and n:
            i = r.randrange(n); line = line[:i] + line[i + 1:]
        elif op == 1:
            i = r.randrange(n + 1); line = line[:i] + r.choice(CHARS) + line[i:]
        elif op == 2 and n:
            i = r.randrange(n); line = line[:i] + r.choice(CHARS) + line[i + 1:]
        elif op == 3:
            toks = re.split(r'(\s*,\s*|\s+)', line)
            if len(toks) > 2:
                i = r.randrange(0, len(toks), 2); del toks[i:i + 2]
                line = ''.join(toks)
        elif op == 4:
            toks = line.split(', ')
            i = r.randrange(len(toks)); toks.insert(i, toks[i]); line = ', '.join(toks)
        elif op == 5:
            toks = line.split(', ')
            if len(toks) > 2:
                i, j = r.randrange(1, len(toks)), r.randrange(1, len(toks))
                toks[i], toks[j] = toks[j], toks[i]; line = ', '.join(toks)
        elif op == 6:
            ms = list(NUM.finditer(line))
            if ms:
                m = r.choice(ms)
                rep = r.choice(INTERESTING) if r.random() < 0.7 else hex(r.getrandbits(r.choice([8, 16, 32, 64])))
                line = line[:m.start()] + rep + line[m.end():]
        elif op == 7:
            ms = list(MOD.finditer(line))
            if ms:
                m = r.choice(ms)
                k = r.randrange(3)
                rep = '' if k == 0 else m.group() * 2 if k == 1 else r.choice(mods)
                line = line[:m.start()] + rep + line[m.end():]
        elif op == 8 and mods:
            sp = line.find(' ')
            sp = n if sp < 0 else sp
            line = line[:sp] + r.choice(mods) + line[sp:]
        elif op == 9:
            ms = list(REG.finditer(line))
            if ms:
                m = r.choice(ms)
                rep = r.choice(REGS) if r.random() < 0.6 else m.group()[:-1] + str(r.randrange(300))
                line = line[:m.start()] + rep + line[m.end():]
        elif op == 10:
            line = (r.choice(GUARDS) + line) if not line.startswith('@') else line.split(' ', 1)[-1]
        elif op == 11 and n:
            line = line[:r.randrange(n)]
        elif op == 12 and mnems:
            m = re.match(r'(@\S+\s+)?([A-Z0-9_]+)', line)
            if m:
                line = line[:m.start(2)] + r.choice(mnems) + line[m.end(2):]
        elif op == 13:
            line = line + r.choice(SCHED)
    return line

def mutate(args):
    """mutate LINES N SEED OUT: N lines, each a random line of LINES mutated 1-3 times."""
    src, n, seed, out = args
    r = random.Random(int(seed))
    lines = [l.rstrip('\n') for l in open(src, errors='replace') if l.strip() and not l.lstrip().startswith(('//', '#'))]
    mnems = sorted({re.match(r'(@\S+\s+)?([A-Z0-9_]+)', l).group(2) for l in lines if re.match(r'(@\S+\s+)?[A-Z0-9_]+', l)})
    mods = sorted({m.group() for l in lines for m in MOD.finditer(l.split(' ')[0] if not l.startswith('@') else l.split(' ')[1])})
    with open(out, 'w') as f:
        for _ in range(int(n)):
            f.write(mutate_line(r.choice(lines), r, mnems, mods).replace('\0', '') + '\n')

SPECIAL = [0, 1, 2, 0xffffffff, 0x80000000, 0x7fffffff, 0x3f800000, 0xbf800000, 0x40000000, 0x7f800000,
           0xff800000, 0x7fc00000, 0x7f800001, 0xffc00001, 0x00000001, 0x807fffff, 0x00800000, 0x7f7fffff,
           0x3c003c00, 0x7c00fc00, 0x7e017c01, 0x00010001, 0x83ff8001, 0x3ff00000, 0x7ff00000, 0xfff80000,
           0x000fffff, 0x4b800000, 0x5f000000, 0xcf000000, 0x3f80bf80, 0x7f807fc1, 0x0000ffff, 0xffff0000]

def value(r):
    k = r.random()
    if k < 0.45:
        return r.choice(SPECIAL)
    if k < 0.55:
        return r.randrange(64)
    return r.getrandbits(32)

def state(args):
    """state PROGRAM NREGS SEED OUT: a random state for PROGRAM (its constants set)."""
    prog, nregs, seed, out = args
    r = random.Random(int(seed))
    text = open(prog, errors='replace').read()
    items = ['"active": "0x%08x"' % (0xffffffff if r.random() < 0.7 else r.getrandbits(32))]
    for i in range(int(nregs)):
        if r.random() < 0.15:
            items.append('"R%d": "0x%08x"' % (i, value(r)))
        else:
            items.append('"R%d": [%s]' % (i, ', '.join('"0x%08x"' % value(r) for _ in range(32))))
    for i in range(7):
        items.append('"P%d": [%s]' % (i, ', '.join(r.choice(['true', 'false']) for _ in range(32))))
        items.append('"UP%d": %s' % (i, r.choice(['true', 'false'])))
    for i in range(63):
        items.append('"UR%d": "0x%08x"' % (i, value(r)))
    consts = set()
    for m in re.finditer(r'c\[(0x[0-9a-fA-F]+|\d+)\]\s*\[(0x[0-9a-fA-F]+|\d+)\]', text):
        b, o = int(m.group(1), 0), int(m.group(2), 0) & ~3
        for off in (o, o + 4):
            if b < 64 and off <= 0xfffc:
                consts.add((b, off))
    for b, off in sorted(consts):
        items.append('"c[0x%x][0x%x]": "0x%08x"' % (b, off, value(r)))
    open(out, 'w').write('{' + ',\n '.join(items) + '}\n')

def golden(args):
    """golden FILE TEXT HEX: the golden listing's two columns."""
    src, out_text, out_hex = args
    t, h = open(out_text, 'w'), open(out_hex, 'w')
    for l in open(src):
        if l.startswith('#') or not l.strip():
            continue
        hexpart, text = l.rstrip('\n').split('  ', 1)
        t.write(text + '\n'); h.write(hexpart + '\n')

{'words': words, 'mutate': mutate, 'state': state, 'golden': golden}[sys.argv[1]](sys.argv[2:])
PYEOF
gen() { python3 "$T/gen.py" "$@" || die "input generator '$1' failed"; }

# ---------------------------------------------------------------- running and comparing
# c ID ARGS...: one run of $GISA with ARGS, standard input from $STDIN; stdout,
# stderr, exit status and any trace.txt written are kept under $OUTD as ID.*.
c() {
    local id=$1
    shift
    timeout -k 5 "$TMO" "$GISA" "$@" <"${STDIN:-/dev/null}" >"$OUTD/$id.out" 2>"$OUTD/$id.err"
    echo "$?" >"$OUTD/$id.rc"
    if [ -e trace.txt ]; then mv trace.txt "$OUTD/$id.trace"; fi
}

# base FILE: a file name usable in a case ID
base() { local b=${1##*/}; echo "${b//[^A-Za-z0-9_.-]/_}"; }

DIFFS=0
# group NAME DESCRIPTION FUNC: runs FUNC once per program (in parallel), with
# GISA, OUTD and the working directory set per program, and compares the results.
group() {
    local name=$1 desc=$2 fn=$3 side
    rm -rf "$T/res" "$T/cwd"
    for side in ref new; do mkdir -p "$T/res/$side" "$T/cwd/$side"; done
    (cd "$T/cwd/ref" && GISA=$REFG OUTD=$T/res/ref "$fn") &
    local p1=$!
    (cd "$T/cwd/new" && GISA=$NEWG OUTD=$T/res/new "$fn") &
    local p2=$!
    wait "$p1"
    wait "$p2"
    local runs
    runs=$(find "$T/res/ref" -name '*.rc' | wc -l)
    if [ "${KEEP:-0}" = 1 ]; then
        mkdir -p "$T/kept"
        cp -r "$T/res" "$T/kept/${name// /_}"
    fi
    if diff -rq "$T/res/ref" "$T/res/new" >/dev/null 2>&1; then
        echo "same: $name ($desc, $runs runs)"
        return
    fi
    DIFFS=$((DIFFS + 1))
    local f ndiff=0 first=
    while IFS= read -r f; do
        if ! cmp -s "$T/res/ref/$f" "$T/res/new/$f" 2>/dev/null; then
            ndiff=$((ndiff + 1))
            [ -n "$first" ] || first=$f
        fi
    done < <( (cd "$T/res/ref" && ls; cd "$T/res/new" && ls) | sort -u)
    echo "DIFFERENT: $name ($desc, $runs runs): $ndiff of the output files differ, the first: $first"
    if [ ! -e "$T/res/ref/$first" ] || [ ! -e "$T/res/new/$first" ]; then
        echo "    only one program wrote $first"
    else
        # cmp's first difference, then that line of each file (diff of whole
        # files of millions of differing lines would take long)
        local msg line
        msg=$(cmp "$T/res/ref/$first" "$T/res/new/$first" 2>&1 | head -n 1 | sed "s|$T/res/||g")
        echo "    $msg"
        line=$(echo "$msg" | sed -n 's/.*line \([0-9][0-9]*\).*/\1/p')
        if [ -n "$line" ]; then
            case "$msg" in *EOF*) line=$((line + 1)) ;; esac
            echo "    < $(sed -n "${line}{p;q}" "$T/res/ref/$first" | cut -c1-300 | cat -v)"
            echo "    > $(sed -n "${line}{p;q}" "$T/res/new/$first" | cut -c1-300 | cat -v)"
        fi
    fi
}

# ---------------------------------------------------------------- inputs
TARGETS="gisa128 fermi"
target_of_byte() { case "$1" in 00) echo fermi ;; *) echo gisa128 ;; esac; }

mkdir -p "$IN/ex" "$IN/corpus" "$IN/strip" "$IN/w16" "$IN/w8" "$IN/asm"
cp "$REPO"/examples/*.s "$IN/ex/" 2>/dev/null
cp "$REPO"/examples/*.json "$IN/ex/" 2>/dev/null
EXAMPLES=("$IN"/ex/*.s)
CORPUS=()
for d in "$REPO"/fuzz/corpus/* "$REPO"/fuzz/regressions/*; do
    [ -d "$d" ] || continue
    h=${d##*/}
    kind=${d%/*}
    kind=${kind##*/}
    for f in "$d"/*; do
        [ -f "$f" ] || continue
        n="${kind}_${h}_$(base "$f")"
        cp "$f" "$IN/corpus/$n"
        tail -c +2 "$f" >"$IN/strip/$n"
        # whole words for each target (fuzz_sim inputs: after their 4-byte header)
        skip=2
        case "$h" in fuzz_sim) skip=5 ;; esac
        for wb in 16 8; do
            size=$(($(tail -c +$skip "$f" | wc -c) / wb * wb))
            tail -c +$skip "$f" | head -c $size >"$IN/w$wb/$n"
        done
        CORPUS+=("$n")
    done
done
gen golden "$REPO/tests/golden/gisa128.golden" "$IN/golden.s" "$IN/golden.hex"
NGOLDEN=$(wc -l <"$IN/golden.s")

# The large gisa128 program: asm_bench's generated source (1,000,000 lines).
ASMBENCH=$REFBUILD/bench/asm_bench
if [ -x "$ASMBENCH" ] && (cd "$T" && "$ASMBENCH" "$IN/gen128.s" >/dev/null 2>&1) && [ -s "$IN/gen128.s" ]; then
    GENSRC="asm_bench"
else
    # Older revisions: the golden texts and the examples, repeated.
    GENSRC="golden+examples, repeated"
    : >"$IN/gen128.s"
    for _ in $(seq 1 4000); do cat "$IN/golden.s"; done >>"$IN/gen128.s"
fi
NGEN=$(wc -l <"$IN/gen128.s")
awk '!seen[$0]++' "$IN/gen128.s" >"$IN/uniq128.s"
cat "$IN/golden.s" >>"$IN/uniq128.s"

# Pools of valid words: the distinct generated lines (gisa128), the Fermi examples.
"$REFG" as --format bin -o "$IN/pool128.bin" "$IN/uniq128.s" 2>/dev/null ||
    "$REFG" as --format bin -o "$IN/pool128.bin" "$IN/golden.s" 2>/dev/null || : >"$IN/pool128.bin"
: >"$IN/fermi_src.s"
for n in "${CORPUS[@]}"; do
    case "$n" in *fuzz_asm_fermi*) cat "$IN/strip/$n" >>"$IN/fermi_src.s" ;; esac
done
"$REFG" as --target fermi --format bin -o "$IN/pool64.bin" "$IN/fermi_src.s" 2>/dev/null || : >"$IN/pool64.bin"

NWORDS=1000000
gen words "$IN/pool128.bin" 16 $NWORDS "$SEED" "$IN/words128.bin" "$IN/words128.hex"
gen words "$IN/pool64.bin" 8 $NWORDS "$((SEED + 1))" "$IN/words64.bin" "$IN/words64.hex"

# Valid Fermi lines (from the reference's listing of the random words).
"$REFG" dis --target fermi "$IN/words64.bin" 2>/dev/null | grep -v '^\.invalid' | awk '!seen[$0]++' >"$IN/uniq64.s"
cat "$IN/fermi_src.s" >>"$IN/uniq64.s"

# Mutated lines; the reference tells which still assemble (no error on their line).
NMUT128=20000
NMUT64=10000
gen mutate "$IN/uniq128.s" $NMUT128 "$((SEED + 2))" "$IN/mut128.s"
gen mutate "$IN/uniq64.s" $NMUT64 "$((SEED + 3))" "$IN/mut64.s"
for t in 128 64; do
    tgt=gisa128
    [ $t = 64 ] && tgt=fermi
    "$REFG" as --target $tgt --max-errors 0 -o /dev/null "$IN/mut$t.s" 2>&1 >/dev/null |
        sed -n "s|^$IN/mut$t\.s:\([0-9]*\):[0-9]*: error:.*|\1|p" | sort -un >"$T/badlines"
    awk 'NR==FNR { bad[$1] = 1; next } !(FNR in bad)' "$T/badlines" "$IN/mut$t.s" >"$IN/mutok$t.s"
    # The first 200 mutated lines, one file each (exit status per line).
    mkdir -p "$IN/mut1_$t"
    head -n 200 "$IN/mut$t.s" | split -l 1 -a 3 -d - "$IN/mut1_$t/l"
done
NMUTOK128=$(wc -l <"$IN/mutok128.s")
NMUTOK64=$(wc -l <"$IN/mutok64.s")

# Assembled inputs for dis: everything the reference assembles without error.
ASSEMBLED=()
asm_input() { # asm_input TARGET FILE
    local n
    n="$1_$(base "$2")"
    if "$REFG" as --target "$1" --format bin -o "$IN/asm/$n.bin" "$2" >/dev/null 2>&1; then
        "$REFG" as --target "$1" --format hex -o "$IN/asm/$n.hex" "$2" >/dev/null 2>&1
        ASSEMBLED+=("$1 $n")
    fi
}
for f in "${EXAMPLES[@]}" "$IN/golden.s" "$IN/mutok128.s"; do asm_input gisa128 "$f"; done
asm_input fermi "$IN/mutok64.s"
for n in "${CORPUS[@]}"; do
    for t in $TARGETS; do asm_input $t "$IN/strip/$n"; done
done

# Random programs: chunks of valid lines, each with a random state.
PROGLINES=300
mkdir -p "$IN/prog"
NPROG128=0
NPROG64=0
mkprogs() { # mkprogs TAG LINES COUNT NREGS
    local tag=$1 src=$2 count=$3 nregs=$4 total i start
    total=$(wc -l <"$src")
    for ((i = 0; i < count; i++)); do
        start=$((total > PROGLINES ? (i * 7919 * PROGLINES) % (total - PROGLINES + 1) : 0))
        [ "$start" -ge 0 ] || start=0
        # SETGPR/GETGPR index registers with random values: they fault at once,
        # so only the last two programs keep them.
        if [ $i -lt $((count - 2)) ]; then
            tail -n +"$((start + 1))" "$src" | grep -v 'GPR' | head -n "$PROGLINES" >"$IN/prog/$tag.$i.s"
        else
            tail -n +"$((start + 1))" "$src" | head -n "$PROGLINES" >"$IN/prog/$tag.$i.s"
        fi
        [ -s "$IN/prog/$tag.$i.s" ] || { rm -f "$IN/prog/$tag.$i.s"; break; }
        gen state "$IN/prog/$tag.$i.s" "$nregs" "$((SEED + 100 + i))" "$IN/prog/$tag.$i.json"
        if [ "$tag" = g ]; then NPROG128=$((i + 1)); else NPROG64=$((i + 1)); fi
    done
    [ -f "$IN/prog/$tag.0.s" ] && gen state "$IN/prog/$tag.0.s" 40 "$((SEED + 99))" "$IN/prog/$tag.0.r40"
}
mkprogs g "$IN/uniq128.s" 12 255
mkprogs f "$IN/uniq64.s" 8 63

echo "inputs ready after $(($(date +%s) - START)) s" >&2

# ---------------------------------------------------------------- groups

g_as_examples() {
    local f t fmt
    for f in "${EXAMPLES[@]}"; do
        for t in $TARGETS; do
            for fmt in hex bin c; do c "$t.$fmt.$(base "$f")" as --target=$t --format $fmt -o - "$f"; done
        done
        STDIN=$f c "stdin.$(base "$f")" as --format hex -o - -
    done
}
g_as_corpus() {
    local n t v fmt
    for n in "${CORPUS[@]}"; do
        for v in corpus strip; do
            for t in $TARGETS; do
                for fmt in hex bin; do c "$v.$t.$fmt.$n" as --target=$t --format $fmt -o - "$IN/$v/$n"; done
            done
        done
    done
}
g_as_golden() {
    c hex as --format hex -o - "$IN/golden.s"
    c bin as --format bin -o - "$IN/golden.s"
    c fermi as --target fermi --format hex -o - "$IN/golden.s"
}
g_as_gen() {
    c hex as --format hex -o - "$IN/gen128.s"
    c bin as --format bin -o - "$IN/gen128.s"
}
g_as_mut() { # $1: 128 or 64
    local t=gisa128 f
    [ "$1" = 64 ] && t=fermi
    c all as --target=$t --max-errors 0 -o - --format hex "$IN/mut$1.s"
    c default as --target=$t -o - --format hex "$IN/mut$1.s"
    local other=fermi
    [ $t = fermi ] && other=gisa128
    c other as --target=$other --max-errors 1000 -o - "$IN/mut$1.s"
    c ok.hex as --target=$t -o - --format hex "$IN/mutok$1.s"
    c ok.bin as --target=$t -o - --format bin "$IN/mutok$1.s"
    for f in "$IN/mut1_$1"/l*; do c "one.${f##*/}" as --target=$t -o - --format hex "$f"; done
}
g_as_mut128() { g_as_mut 128; }
g_as_mut64() { g_as_mut 64; }

g_dis_words() { # $1: 128 or 64
    local t=gisa128
    [ "$1" = 64 ] && t=fermi
    c plain dis --target=$t "$IN/words$1.bin"
    c offsets dis --target=$t --offsets "$IN/words$1.bin"
    c raw dis --target=$t --raw "$IN/words$1.bin"
    c offsets_raw_strict dis --target=$t --offsets --raw --strict "$IN/words$1.bin"
    c hex dis --target=$t --format hex --raw "$IN/words$1.hex"
}
g_dis_words128() { g_dis_words 128; }
g_dis_words64() { g_dis_words 64; }
g_dis_assembled() {
    local e t n
    for e in "${ASSEMBLED[@]}"; do
        t=${e%% *}
        n=${e#* }
        c "$n.bin" dis --target=$t "$IN/asm/$n.bin"
        c "$n.bin_or" dis --target=$t --offsets --raw --strict "$IN/asm/$n.bin"
        c "$n.hex" dis --target=$t --format hex --offsets "$IN/asm/$n.hex"
        STDIN=$IN/asm/$n.bin c "$n.stdin" dis --target=$t -
    done
    c golden dis --format hex "$IN/golden.hex"
    c golden_or dis --format hex --offsets --raw "$IN/golden.hex"
    c golden_fermi dis --target fermi --format hex "$IN/golden.hex"
}
g_dis_corpus() {
    local n t v
    for n in "${CORPUS[@]}"; do
        for v in corpus strip; do
            for t in $TARGETS; do
                c "$v.$t.bin.$n" dis --target=$t "$IN/$v/$n"
                c "$v.$t.bin_or.$n" dis --target=$t --offsets --raw "$IN/$v/$n"
                c "$v.$t.hex.$n" dis --target=$t --format hex "$IN/$v/$n"
                c "$v.$t.hex_or.$n" dis --target=$t --format hex --offsets --raw --strict "$IN/$v/$n"
            done
        done
        c "words.gisa128.$n" dis --offsets --raw "$IN/w16/$n"
        c "words.fermi.$n" dis --target fermi --offsets --raw "$IN/w8/$n"
    done
}

g_run_examples() {
    local f st t n w
    for f in "${EXAMPLES[@]}"; do
        st=${f%.s}.json
        for w in 1 2; do
            c "$(base "$f").w$w" run "$f" --warps $w --trace=trace.txt
            [ -f "$st" ] && c "$(base "$f").state.w$w" run "$f" --state "$st" --warps $w --trace=trace.txt
        done
        [ -f "$st" ] && c "$(base "$f").stdout" run "$f" --state "$st" --out - --trace
        c "$(base "$f").regs8" run "$f" --regs 8 --trace=trace.txt
        c "$(base "$f").fermi" run --target fermi "$f" --trace=trace.txt
    done
    for e in "${ASSEMBLED[@]}"; do
        t=${e%% *}
        n=${e#* }
        case "$n" in *mutok*) continue ;; esac
        c "$n.bin" run --target=$t --format bin "$IN/asm/$n.bin" --warps 2 --trace=trace.txt
        c "$n.hex" run --target=$t --format hex "$IN/asm/$n.hex" --trace=trace.txt
    done
    # fuzz corpus states on a program of the target, fuzz corpus programs as words
    local prog
    for n in "${CORPUS[@]}"; do
        case "$n" in
            *fuzz_state*)
                for t in $TARGETS; do
                    prog=$IN/fermi_src.s
                    if [ $t = gisa128 ]; then
                        prog=${EXAMPLES[0]}
                        [ -f "$IN/ex/sim_demo.s" ] && prog=$IN/ex/sim_demo.s
                    fi
                    for w in 1 2; do
                        c "state.$t.w$w.$n" run --target=$t "$prog" --state "$IN/strip/$n" --warps $w --trace=trace.txt
                    done
                done
                ;;
            *fuzz_sim*)
                for t in $TARGETS; do
                    c "sim.$t.$n" run --target=$t --format bin "$IN/strip/$n" --warps 2 --trace=trace.txt
                    c "simraw.$t.$n" run --target=$t --format bin "$IN/corpus/$n" --trace=trace.txt
                done
                c "simwords.gisa128.$n" run --format bin "$IN/w16/$n" --warps 3 --trace=trace.txt
                c "simwords.fermi.$n" run --target fermi --format bin "$IN/w8/$n" --warps 3 --trace=trace.txt
                ;;
        esac
    done
}
g_run_progs() { # $1: g or f
    local t=gisa128 p n
    [ "$1" = f ] && t=fermi
    for p in "$IN/prog/$1".*.s; do
        n=$(base "$p")
        c "$n" run --target=$t "$p" --state "${p%.s}.json" --warps 2 --trace=trace.txt
    done
    p=$IN/prog/$1.0.s
    c fault.regs run --target=$t "$p" --regs 40 --warps 2 --trace=trace.txt
    c fault.state run --target=$t "$p" --regs 40 --state "${p%.s}.r40" --trace=trace.txt
    c badstate run --target=$t "$p" --regs 40 --state "${p%.s}.json"
    c threads1 run --target=$t "$p" --state "${p%.s}.json" --warps 4 --threads 1
}
g_run_progs128() { g_run_progs g; }
g_run_progs64() { g_run_progs f; }

LINT_SEEDS=$REPO/../shared/seeds
g_lint() {
    local t n
    c default lint
    for t in $TARGETS; do
        c "$t" lint --target=$t
        c "$t.werror" lint --target=$t --werror
        [ -d "$REPO/isa/$t" ] && c "$t.isadir" lint --target=$t --isa "$REPO/isa/$t"
    done
    if [ -d "$LINT_SEEDS" ]; then
        c seeds lint --isa "$LINT_SEEDS"
        c seeds.doc doc --isa "$LINT_SEEDS"
        c seeds.overlay lint --isa "$LINT_SEEDS" --isa-overlay "$REPO/isa/gisa128"
    fi
    for n in "${CORPUS[@]}"; do
        case "$n" in *fuzz_loader*) ;; *) continue ;; esac
        mkdir -p "isa_$n"
        cp "$IN/strip/$n" "isa_$n/x.isa"
        c "loader.$n" lint --isa "isa_$n"
        c "loader.doc.$n" doc --isa "isa_$n"
    done
}
g_doc() {
    local t name
    c default.list doc
    for t in $TARGETS; do
        c "$t.list" doc --target=$t
        c "$t.unknown" doc --target=$t NO_SUCH_OPCODE
        for name in $(cat "$IN/doclist.$t"); do
            c "$t.$name" doc --target=$t "$name"
        done
    done
}

# The names to document: every word of the reference's lists after the title.
NDOC=0
for t in $TARGETS; do
    "$REFG" doc --target=$t | tail -n +2 | awk '/^[ \t]/ { for (i = 1; i <= NF; i++) print $i; next } { print $1 }' |
        grep -E '^[A-Z][A-Z0-9_.]*$' | sort -u >"$IN/doclist.$t"
    NDOC=$((NDOC + $(wc -l <"$IN/doclist.$t")))
done

NEX=${#EXAMPLES[@]}
NC=${#CORPUS[@]}
group "as examples" "$NEX files, both targets, hex/bin/c" g_as_examples
group "as fuzz corpora" "$NC files, as is and without byte 0, both targets" g_as_corpus
group "as golden text" "$NGOLDEN lines" g_as_golden
group "as generated program gisa128" "$NGEN lines from $GENSRC" g_as_gen
group "as mutated lines gisa128" "$NMUT128 lines, $NMUTOK128 still valid, 200 one by one" g_as_mut128
group "as mutated lines fermi" "$NMUT64 lines, $NMUTOK64 still valid, 200 one by one" g_as_mut64
group "dis random words gisa128" "$NWORDS words" g_dis_words128
group "dis random words fermi" "$NWORDS words" g_dis_words64
group "dis assembled inputs" "${#ASSEMBLED[@]} word files + golden hex" g_dis_assembled
group "dis fuzz corpora" "$NC files, bin and hex, both targets" g_dis_corpus
group "run examples and corpus" "$NEX examples, corpus states and programs" g_run_examples
group "run random programs gisa128" "$NPROG128 programs of $PROGLINES lines, --warps 2" g_run_progs128
group "run random programs fermi" "$NPROG64 programs of up to $PROGLINES lines, --warps 2" g_run_progs64
group "lint" "both targets$([ -d "$LINT_SEEDS" ] && echo ", --isa ../shared/seeds"), loader corpus" g_lint
group "doc" "$NDOC names, both targets" g_doc

echo "time: $(($(date +%s) - START)) s" >&2
if [ "$DIFFS" -gt 0 ]; then
    echo "$DIFFS group(s) DIFFERENT"
    exit 1
fi
echo "all same"
exit 0
