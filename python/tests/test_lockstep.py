"""python/examples/lockstep.py, run as a user runs it: its Python model
agrees with gisa over generated programs, and each bug it can put into the
model is caught, with the instruction and register named."""

import os
import re
import subprocess
import sys

import pytest

EXAMPLE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples", "lockstep.py")
BUGS = ["iadd-carry-in", "lop3-order", "sel-not", "mov64"]


def run(*args):
    return subprocess.run([sys.executable, EXAMPLE] + list(args), capture_output=True, text=True,
                          env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1"))


def test_clean_model_agrees():
    r = run("--seeds", "4", "--count", "400", "--coverage")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "1600 instructions, 4 programs: the model agrees with gisa" in r.stdout
    assert re.search(r"coverage: \d+/187 opcodes", r.stdout)


@pytest.mark.parametrize("bug", BUGS)
def test_injected_bug_is_caught(bug):
    r = run("--bug", bug)
    assert r.returncode == 1, r.stdout + r.stderr
    m = re.search(r"^MISMATCH seed \d+ pc \d+ \((.*)\): (.*)$", r.stdout, re.M)
    assert m, r.stdout
    opcode = {"iadd-carry-in": "IADD.X", "lop3-order": "LOP3", "sel-not": "SEL", "mov64": "MOV.64"}[bug]
    assert opcode in m.group(1) and "model 0x" in m.group(2), m.group(0)


def test_bad_usage():
    assert run("--bug", "nosuch").returncode == 2
