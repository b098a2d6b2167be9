"""The golden model's results do not depend on the calling thread's
floating-point environment: a Python process may have loaded an extension
built with -ffast-math (which sets flush-to-zero and denormals-are-zero for
the whole thread) or changed the rounding mode through libm. Here both are
done through ctypes, and every floating-point instruction of a random
program must give the bits it gives in IEEE's default environment, under
both engines; the caller's environment must be unchanged afterwards."""

import ctypes
import ctypes.util
import os
import platform
import random
import shutil
import subprocess

import pytest

import gisa

ISA = gisa.load()
LIBM = ctypes.CDLL(ctypes.util.find_library("m"))
FE = {"RN": 0x000, "RM": 0x400, "RP": 0x800, "RZ": 0xC00}  # glibc x86 FE_* values

HELPER_C = r"""
#include <xmmintrin.h>
unsigned fpenv_get_csr(void) { return _mm_getcsr(); }
void fpenv_set_csr(unsigned v) { _mm_setcsr(v); }
"""


@pytest.fixture(scope="module")
def csr(tmp_path_factory):
    """A tiny library built with -ffast-math (as a numerical extension might
    be) that reads and writes MXCSR."""
    if platform.machine() not in ("x86_64", "AMD64", "i686"):
        pytest.skip("FTZ/DAZ through MXCSR is x86 only")
    cc = os.environ.get("GISA_CC") or shutil.which("cc") or shutil.which("gcc")
    if not cc:
        pytest.skip("no C compiler to build the MXCSR helper (set GISA_CC)")
    d = tmp_path_factory.mktemp("fpenv")
    src, lib = d / "helper.c", d / "libfpenv_helper.so"
    src.write_text(HELPER_C)
    subprocess.run([cc, "-shared", "-fPIC", "-O2", "-ffast-math", "-o", str(lib), str(src)], check=True)
    h = ctypes.CDLL(str(lib))
    h.fpenv_get_csr.restype = ctypes.c_uint
    h.fpenv_set_csr.argtypes = [ctypes.c_uint]
    return h


FTZ_DAZ = 0x8040

OPS = ["FADD{r} R{d}, R{a}, R{b}", "FMUL{r} R{d}, R{a}, R{b}", "FFMA{r} R{d}, R{a}, R{b}, R{c}",
       "FADD.FTZ{r} R{d}, R{a}, R{b}", "FFMA.SAT{r} R{d}, R{a}, R{b}, R{c}", "FMUL.D2{r} R{d}, R{a}, R{b}",
       "HFMA2{r} R{d}, R{a}, R{b}, R{c}", "HADD2 R{d}, R{a}, R{b}", "HFMA2.BF16_V2{r} R{d}, R{a}, R{b}, R{c}",
       "DADD{r} R[{dp}:{dp1}], R[{ap}:{ap1}], R[{bp}:{bp1}]", "DFMA{r} R[{dp}:{dp1}], R[{ap}:{ap1}], R[{bp}:{bp1}], R[{cp}:{cp1}]",
       "DMUL{r} R[{dp}:{dp1}], R[{ap}:{ap1}], R[{bp}:{bp1}]", "FMNMX R{d}, R{a}, R{b}, PT",
       "FSETP.LT.AND P0, PT, R{a}, R{b}, PT", "FCHK P1, R{a}, R{b}"]


def program(rnd, n):
    lines = []
    for _ in range(n):
        op = rnd.choice(OPS)
        r = rnd.choice(["", ".RM", ".RP", ".RZ"]) if "HADD2" not in op else ""
        if "HFMA2" in op and r:
            r = ""  # the F16 lanes' rounding is covered by HFMA2 without modifiers too
        p = [2 * rnd.randrange(8) for _ in range(4)]
        lines.append(op.format(r=r, d=rnd.randrange(16), a=rnd.randrange(16), b=rnd.randrange(16),
                               c=rnd.randrange(16), dp=p[0], dp1=p[0] + 1, ap=p[1], ap1=p[1] + 1,
                               bp=p[2], bp1=p[2] + 1, cp=p[3], cp1=p[3] + 1))
    return "\n".join(lines) + "\n"


def operand(rnd):
    """Values near the edges: subnormals of every format, tiny, huge, specials."""
    kind = rnd.randrange(6)
    if kind == 0:
        return rnd.randrange(1, 1 << 23) | rnd.randrange(2) << 31  # F32 subnormal
    if kind == 1:
        return (rnd.randrange(1, 1 << 10) | rnd.randrange(2) << 15) * 0x10001  # F16 subnormals in both lanes
    if kind == 2:
        return rnd.choice([0, 0x80000000, 0x00800000, 0x7F7FFFFF, 0x7F800000, 0x3F800000, 0x00000001])
    if kind == 3:
        return rnd.randrange(0, 1 << 20)  # an F64 high word of a subnormal / a tiny F32
    return rnd.randrange(1 << 32)


def run(text, seed, engine, env=None, csr=None):
    rnd = random.Random(seed)
    sim = ISA.simulator(warps=1, regs=16, threads=1)
    sim.set_engine(engine)
    sim.load(text)
    for r in range(16):
        sim.set_reg(0, r, [operand(rnd) for _ in range(32)])
    saved_csr = saved_round = None
    if env is not None:
        saved_round = LIBM.fegetround()
        saved_csr = csr.fpenv_get_csr()
        LIBM.fesetround(FE[env[0]])
        if env[1]:
            csr.fpenv_set_csr(csr.fpenv_get_csr() | FTZ_DAZ)
        before = csr.fpenv_get_csr()
    try:
        sim.run()
    finally:
        if env is not None:
            after, after_round = csr.fpenv_get_csr(), LIBM.fegetround()
            csr.fpenv_set_csr(saved_csr)
            LIBM.fesetround(saved_round)
    if env is not None:
        assert after == before and after_round == FE[env[0]], \
            "the caller's FP environment changed: MXCSR %#x -> %#x" % (before, after)
    return [list(sim.get_reg(0, r)) for r in range(16)] + [list(sim.get_pred(0, p)) for p in range(7)]


def test_ftz_daz_fadd_of_subnormals(csr):
    """The case of the report: FADD of the two smallest subnormals is 2 ulps,
    not 0, with FTZ|DAZ set in the calling thread."""
    saved = csr.fpenv_get_csr()
    try:
        for engine in ("native", "doc"):
            sim = ISA.simulator(warps=1, regs=8, threads=1)
            sim.set_engine(engine)
            sim.load("FADD R0, R1, R2\n")
            sim.set_reg(0, 1, 1)
            sim.set_reg(0, 2, 1)
            csr.fpenv_set_csr(saved | FTZ_DAZ)
            sim.run()
            got = csr.fpenv_get_csr()
            csr.fpenv_set_csr(saved)
            assert got == saved | FTZ_DAZ
            assert list(sim.get_reg(0, 0)) == [2] * 32, "engine %s" % engine
    finally:
        csr.fpenv_set_csr(saved)


@pytest.mark.parametrize("seed", range(6))
def test_every_environment_gives_the_same_bits(csr, seed):
    rnd = random.Random(seed)
    text = program(rnd, 60)
    for engine in ("native", "doc"):
        want = run(text, seed, engine)
        for env in [(m, f) for m in FE for f in (False, True)]:
            got = run(text, seed, engine, env, csr)
            assert got == want, "engine %s, rounding %s, FTZ|DAZ %s:\n%s" % (engine, env[0], env[1], text)


def test_a_fast_math_extension_sets_ftz_daz(csr, tmp_path):
    """What makes this matter: with GCC before 13, loading any shared object
    built with -ffast-math sets FTZ|DAZ for the process (crtfastmath.o).
    Informational where the compiler no longer does so."""
    saved = csr.fpenv_get_csr()
    try:
        csr.fpenv_set_csr(saved & ~FTZ_DAZ)
        cc = os.environ.get("GISA_CC") or shutil.which("cc")
        src, lib = tmp_path / "fm.c", tmp_path / "libfm.so"
        src.write_text("int fm_answer(void) { return 42; }\n")
        subprocess.run([cc, "-shared", "-fPIC", "-ffast-math", "-o", str(lib), str(src)], check=True)
        ctypes.CDLL(str(lib))
        loaded = csr.fpenv_get_csr()
        if not loaded & FTZ_DAZ:
            pytest.skip("this compiler's -ffast-math shared objects leave MXCSR alone")
        csr.fpenv_set_csr(loaded)
        sim = ISA.simulator(warps=1, regs=8, threads=1)
        sim.load("FADD R0, R1, R2\n")
        sim.set_reg(0, 1, 1)
        sim.set_reg(0, 2, 1)
        sim.run()
        assert csr.fpenv_get_csr() == loaded
        csr.fpenv_set_csr(saved)
        assert list(sim.get_reg(0, 0)) == [2] * 32
    finally:
        csr.fpenv_set_csr(saved)
