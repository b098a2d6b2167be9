#!/usr/bin/python3
"""gisa regress: a regression campaign of generated programs against a
design under test, on this machine (-j N) or on a Slurm cluster.

Python 3 standard library only, run as /usr/bin/python3 by `gisa regress`
(src/cli/cmd_regress.c), which names the gisa program in $GISA_PROGRAM.
docs/verification.md, "Campaigns", describes the config, the campaign
directory and the outputs.

The job logic (run_job: generate, golden model, DUT, compare, record) knows
nothing of where it runs: a backend only decides which process runs which
jobs and waits for their result files, which are the only way results
travel (a shared directory is all a cluster needs)."""

import argparse
import concurrent.futures
import datetime
import hashlib
import json
import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import tomllib
import xml.etree.ElementTree as ET

SCRIPT = os.path.abspath(__file__)
FORMAT = 1  # of campaign.json and the result files
COMPARES = ("exit", "trace", "state")
PLACEHOLDERS = ("prog", "state", "trace", "out", "seed", "gisa", "dir")


class CampaignError(Exception):
    """A bad config or campaign directory: printed as 'gisa regress: ...', exit 2."""


def die(msg, status=2):
    print(f"gisa regress: {msg}", file=sys.stderr)
    sys.exit(status)


# ------------------------------------------------------------------ config


def parse_seeds(spec, where):
    """'1-1000', '1-10,17,40-45', an integer list, or {count, start}."""
    if isinstance(spec, int) and not isinstance(spec, bool):
        return [spec]
    if isinstance(spec, list) and all(isinstance(s, int) and not isinstance(s, bool) for s in spec):
        return list(spec)
    if isinstance(spec, str):
        seeds = []
        for part in spec.replace(" ", "").split(","):
            m = re.fullmatch(r"(\d+|0x[0-9a-fA-F]+)(?:-(\d+|0x[0-9a-fA-F]+))?", part)
            if not m:
                raise CampaignError(f"{where}: bad seed range '{part}' (expected N or A-B, comma-separated)")
            a = int(m.group(1), 0)
            b = int(m.group(2), 0) if m.group(2) else a
            if b < a:
                raise CampaignError(f"{where}: seed range '{part}' is empty (B < A)")
            seeds.extend(range(a, b + 1))
        return seeds
    raise CampaignError(f"{where}: seeds must be 'A-B[,...]', an integer or a list of integers")


def gen_args(table, where):
    """A TOML table of `gisa gen` options: key = value gives --key value,
    key = true gives --key, key = false leaves it out."""
    args = []
    for k, v in table.items():
        if k in ("seed", "output", "o", "state-out", "words"):
            raise CampaignError(f"{where}: '{k}' is set by the campaign, not the config")
        if isinstance(v, bool):
            if v:
                args.append(f"--{k}")
        elif isinstance(v, (int, float, str)):
            args += [f"--{k}", str(v)]
        elif isinstance(v, list):
            args += [f"--{k}", ",".join(str(x) for x in v)]
        else:
            raise CampaignError(f"{where}: option '{k}' must be a string, number, boolean or list")
    return args


CAMPAIGN_KEYS = {
    "name": str, "seeds": None, "dut": str, "compare": str, "timeout": (int, float), "retries": int,
    "shrink": int, "shrink_timeout": (int, float), "coverage": bool, "keep": bool, "cwd": str,
    "trace_diff_args": list, "dir": str,
}


def load_config(path):
    try:
        with open(path, "rb") as f:
            raw = f.read()
        cfg = tomllib.loads(raw.decode("utf-8"))
    except OSError as e:
        raise CampaignError(f"{path}: {e.strerror}")
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
        raise CampaignError(f"{path}: {e}")
    for k in cfg:
        if k not in ("campaign", "gen", "groups"):
            raise CampaignError(f"{path}: unknown table [{k}] (expected [campaign], [gen], [groups.NAME])")
    c = cfg.get("campaign", {})
    for k, v in c.items():
        if k not in CAMPAIGN_KEYS:
            near = [n for n in CAMPAIGN_KEYS if n.startswith(k[:3])]
            hint = f" (did you mean '{near[0]}'?)" if near else ""
            raise CampaignError(f"{path}: [campaign]: unknown key '{k}'{hint}")
        t = CAMPAIGN_KEYS[k]
        if t is not None and (not isinstance(v, t) or isinstance(v, bool) and t is not bool):
            raise CampaignError(f"{path}: [campaign] {k}: wrong type {type(v).__name__}")
    if "dut" not in c:
        raise CampaignError(f"{path}: [campaign] needs dut = \"COMMAND {{prog}} {{state}} ...\"")
    compare = c.get("compare", "exit")
    if compare not in COMPARES:
        raise CampaignError(f"{path}: [campaign] compare = '{compare}': expected one of {', '.join(COMPARES)}")
    for name in re.findall(r"\{(\w*)\}", c["dut"]):
        if name not in PLACEHOLDERS:
            raise CampaignError(f"{path}: [campaign] dut: unknown placeholder {{{name}}} "
                                f"(known: {', '.join('{' + p + '}' for p in PLACEHOLDERS)})")
    if compare == "trace" and "{trace}" not in c["dut"]:
        raise CampaignError(f"{path}: compare = 'trace' needs {{trace}} in the dut command (where it writes its commit log)")
    base = os.path.dirname(os.path.abspath(path))
    default_gen = cfg.get("gen", {})
    base_args = gen_args(default_gen, f"{path}: [gen]")
    seeds_all = parse_seeds(c.get("seeds", "1-100"), f"{path}: [campaign] seeds")
    groups = []
    for gname, g in (cfg.get("groups") or {"default": {}}).items():
        if not re.fullmatch(r"[A-Za-z0-9_.-]+", gname):
            raise CampaignError(f"{path}: group name '{gname}': letters, digits, '_', '.', '-' only")
        if not isinstance(g, dict):
            raise CampaignError(f"{path}: groups.{gname} must be a table")
        g = dict(g)
        seeds = parse_seeds(g.pop("seeds"), f"{path}: groups.{gname}.seeds") if "seeds" in g else seeds_all
        merged = dict(default_gen)
        merged.update(g)
        groups.append({"name": gname, "seeds": seeds, "gen": base_args if not g else gen_args(merged, f"{path}: groups.{gname}")})
    return {
        "format": FORMAT,
        "config": os.path.abspath(path),
        "config_sha1": hashlib.sha1(raw).hexdigest(),
        "name": c.get("name", os.path.splitext(os.path.basename(path))[0]),
        "dut": c["dut"],
        "compare": compare,
        "timeout": float(c.get("timeout", 60)),
        "retries": int(c.get("retries", 1)),
        "shrink": int(c.get("shrink", 1)),
        "shrink_timeout": float(c.get("shrink_timeout", 600)),
        "coverage": bool(c.get("coverage", True)),
        "keep": bool(c.get("keep", False)),
        "cwd": os.path.normpath(os.path.join(base, c.get("cwd", "."))),
        "trace_diff_args": [str(a) for a in c.get("trace_diff_args", [])],
        "dir": os.path.join(base, c["dir"]) if "dir" in c else None,
        "groups": groups,
    }


def job_list(camp):
    return [(g["name"], s) for g in camp["groups"] for s in g["seeds"]]


def group_of(camp, name):
    for g in camp["groups"]:
        if g["name"] == name:
            return g
    raise CampaignError(f"no group '{name}' (groups: {', '.join(g['name'] for g in camp['groups'])})")


# ------------------------------------------------------------------ processes

_children = set()
_children_lock = threading.Lock()
_stopping = threading.Event()


def run_cmd(argv, timeout, cwd=None, stdout=None, stderr=None, shell=False, env=None):
    """Runs a command in its own process group (a timeout or an interrupt
    kills all of it, a DUT's children too). Returns (status, timed_out);
    status < 0: killed by that signal."""
    if _stopping.is_set():
        raise KeyboardInterrupt
    p = subprocess.Popen(argv, cwd=cwd, stdout=stdout or subprocess.DEVNULL, stderr=stderr or subprocess.DEVNULL,
                         stdin=subprocess.DEVNULL, shell=shell, env=env, start_new_session=True)
    with _children_lock:
        _children.add(p)
    try:
        try:
            st, to = p.wait(timeout=timeout), False
        except subprocess.TimeoutExpired:
            kill_group(p)
            st, to = p.wait(), True
    finally:
        with _children_lock:
            _children.discard(p)
    if _stopping.is_set():  # killed by the interrupt: the job is not done, and records nothing
        raise KeyboardInterrupt
    return st, to


def kill_group(p):
    try:
        os.killpg(p.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def kill_children():
    _stopping.set()
    with _children_lock:
        for p in list(_children):
            kill_group(p)


def write_atomic(path, text):
    tmp = f"{path}.tmp{os.getpid()}.{threading.get_ident()}"
    with open(tmp, "w") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def read_text(path, limit=1 << 20):
    try:
        with open(path, "rb") as f:
            return f.read(limit).decode("utf-8", "replace")
    except OSError:
        return ""


# ------------------------------------------------------------------ signatures

REG = re.compile(r"\b(U?[RP])(?:\d+|Z|T)\b")
NUM = re.compile(r"\b(?:0x[0-9a-fA-F]+|\d+(?:\.\d+)?)\b")
MNEMONIC = re.compile(r"^(?:@!?U?P(?:\d+|T)\s+)?([A-Z][A-Z0-9_]*)")


def optype_of(text):
    """The optype of an instruction's text: its mnemonic without modifiers
    and guard ('@P0 IADD.X R1, ...' -> IADD), the ISA model's optype name."""
    m = MNEMONIC.match(text.strip())
    return m.group(1) if m else "-"


def normalise(msg):
    """A message with the values taken out, so one bug gives one signature:
    register numbers (R11 -> R) and numbers (N)."""
    msg = REG.sub(lambda m: m.group(1), msg)
    msg = NUM.sub("N", msg)
    return re.sub(r"\s+", " ", msg).strip()


def make_sig(optype, reg, message):
    key = f"{optype}|{reg}|{message}"
    return {"id": hashlib.sha1(key.encode()).hexdigest()[:10], "optype": optype, "reg": reg, "message": message}


def sig_from_line(line):
    """A DUT's own report line: the instruction in parentheses gives the
    optype, the first register outside them the register kind (the
    lockstep example: 'mismatch: warp 0 pc 7 (IADD.X R3, ...): P2 lane 5:
    expected 0, got 1')."""
    m = re.search(r"\(([^()]*)\)", line)
    optype = optype_of(m.group(1)) if m else "-"
    rest = re.sub(r"\s*\([^()]*\)", "", line)
    r = REG.search(rest)
    return make_sig(optype, r.group(1) if r else "-", normalise(rest))


def sig_from_trace_diff(text):
    """`gisa trace-diff` output: its first line (normalised) and, from the
    line of the first differing record ('  pc N INSTR: REG lanes ...'), the
    optype and register kind."""
    lines = [l for l in text.splitlines() if l.strip()]
    if not lines:
        return make_sig("-", "-", "trace-diff: no output")
    optype, reg = "-", "-"
    for l in lines[1:]:
        m = re.match(r"\s+pc \d+ (.*?): (.*)$", l)
        if m:
            optype = optype_of(m.group(1))
            r = REG.search(m.group(2))
            reg = r.group(1) if r else "-"
            break
        m = re.match(r"[-+] [^:]*:\d+: w\d+ \d+ exec 0x[0-9a-f]+ (.*)$", l)
        if m and optype == "-":
            optype = optype_of(m.group(1))
    head = re.sub(r"\s*\(pc \d+\)", "", lines[0])
    return make_sig(optype, reg, normalise(head))


def state_diff(gold, dut):
    """The first difference of two final states (`gisa run` JSON): None when
    equal, else (register, message)."""
    gw = gold.get("warps", [gold]) if isinstance(gold, dict) else None
    dw = dut.get("warps", [dut]) if isinstance(dut, dict) else None
    if gw is None or dw is None:
        return "-", "final state is not a JSON object"
    if len(gw) != len(dw):
        return "-", f"final state has {len(dw)} warps, expected {len(gw)}"
    for w, (g, d) in enumerate(zip(gw, dw)):
        for k, v in g.items():
            dv = d.get(k)
            if dv == v:
                continue
            if isinstance(v, list) and isinstance(dv, list) and len(v) == len(dv):
                lane = next(i for i in range(len(v)) if v[i] != dv[i])
                return k, f"final state: warp {w} {k} lane {lane}: expected {v[lane]}, got {dv[lane]}"
            return k, f"final state: warp {w} {k}: expected {v}, got {dv}"
    return None


# ------------------------------------------------------------------ one job


def gisa_program():
    g = os.environ.get("GISA_PROGRAM") or shutil.which("gisa")
    if not g:
        die("no gisa program: run it as 'gisa regress' (or set GISA_PROGRAM)")
    return os.path.abspath(g)


def dut_command(camp, files, seed, gisa):
    values = {"prog": files["prog"], "state": files["state"], "trace": files["trace"], "out": files["out"],
              "seed": str(seed), "gisa": gisa, "dir": files["dir"]}
    return re.sub(r"\{(\w+)\}", lambda m: shlex.quote(values[m.group(1)]), camp["dut"])


def job_files(d):
    return {k: os.path.join(d, v) for k, v in
            (("prog", "prog.s"), ("state", "state.json"), ("gold", "gold.json"), ("gold_trace", "gold.trace"),
             ("trace", "dut.trace"), ("out", "dut.json"), ("stdout", "dut.out"), ("stderr", "dut.err"),
             ("cov", "cov.json"), ("log", "gisa.log"))} | {"dir": d}


def check_program(camp, gisa, files, seed, prog, coverage):
    """Runs the golden model and the DUT on prog (from files['state']) and
    compares: (status, signature or None, detail, attempts, times).
    status: pass, fail, error (the golden model or the comparison itself
    failed), timeout."""
    t = {}
    t0 = time.monotonic()
    grun = [gisa, "run", prog, "--state", files["state"], "-o", files["gold"]]
    if camp["compare"] == "trace":
        grun.append(f"--trace={files['gold_trace']}")
    if coverage:
        grun += ["--coverage", files["cov"]]
    with open(files["log"], "ab") as log:
        st, to = run_cmd(grun, camp["timeout"], stdout=log, stderr=log)
    t["golden"] = time.monotonic() - t0
    if st != 0 or to:
        why = "timed out" if to else f"exit status {st}"
        return "error", make_sig("-", "-", f"golden model: {why}"), read_text(files["log"])[-2000:], 1, t
    cmd = dut_command(camp, dict(files, prog=prog), seed, gisa)
    attempts = 0
    t0 = time.monotonic()
    while True:
        attempts += 1
        for k in ("trace", "out"):
            if os.path.exists(files[k]):
                os.remove(files[k])
        with open(files["stdout"], "wb") as o, open(files["stderr"], "wb") as e:
            st, to = run_cmd(["/bin/sh", "-c", cmd], camp["timeout"], cwd=camp["cwd"], stdout=o, stderr=e,
                             env=dict(os.environ, GISA=gisa, GISA_REGRESS_SEED=str(seed)))
        # a timeout or a crash may be the machine's: retried; a mismatch is not
        if not (to or st < 0) or attempts > camp["retries"]:
            break
    t["dut"] = time.monotonic() - t0
    out = read_text(files["stdout"])
    first = next((l for l in (out + "\n" + read_text(files["stderr"])).splitlines() if l.strip()), "")
    if to:
        return "timeout", make_sig("-", "-", f"timeout after {camp['timeout']:g} s"), first, attempts, t
    if st < 0:
        return "fail", make_sig("-", "-", f"DUT killed by signal {-st}"), first, attempts, t
    if camp["compare"] == "exit":
        if st == 0:
            return "pass", None, "", attempts, t
        return "fail", sig_from_line(first or f"exit status {st}"), first, attempts, t
    if camp["compare"] == "trace":
        if st != 0:
            return "fail", make_sig("-", "-", normalise(f"DUT exit status {st}: {first}")), first, attempts, t
        td = [gisa, "trace-diff"] + camp["trace_diff_args"] + [files["gold_trace"], files["trace"]]
        diff = os.path.join(files["dir"], "trace-diff.txt")
        with open(diff, "wb") as o:
            st, to = run_cmd(td, camp["timeout"], stdout=o, stderr=o)
        text = read_text(diff)
        if st == 0:
            return "pass", None, "", attempts, t
        if st == 1:
            return "fail", sig_from_trace_diff(text), text, attempts, t
        return "error", make_sig("-", "-", "trace-diff could not compare: " + normalise(text.splitlines()[0] if text else "")), text, attempts, t
    # compare == "state": the DUT's final state is {out} when it names it, else its stdout
    if st != 0:
        return "fail", make_sig("-", "-", normalise(f"DUT exit status {st}: {first}")), first, attempts, t
    try:
        gold = json.loads(read_text(files["gold"], 1 << 30))
        dut = json.loads(read_text(files["out"], 1 << 30) if "{out}" in camp["dut"] else out)
    except json.JSONDecodeError as e:
        return "fail", make_sig("-", "-", "DUT final state is not JSON"), str(e), attempts, t
    d = state_diff(gold, dut)
    if d is None:
        return "pass", None, "", attempts, t
    reg, msg = d
    m = REG.match(reg)
    return "fail", make_sig("-", m.group(1) if m else reg, normalise(msg)), msg, attempts, t


def result_path(cdir, group, seed):
    return os.path.join(cdir, "results", group, f"{seed}.json")


def work_dir(cdir, group, seed):
    return os.path.join(cdir, "work", group, str(seed))


def run_job(camp, cdir, gisa, group, seed):
    """One job, start to end: the same from any backend, any host, any
    order. The result file is written last (atomically): it is what marks
    the job done."""
    start = time.time()
    d = work_dir(cdir, group, seed)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    os.makedirs(os.path.dirname(result_path(cdir, group, seed)), exist_ok=True)
    f = job_files(d)
    g = group_of(camp, group)
    t0 = time.monotonic()
    gen = [gisa, "gen", "--seed", str(seed)] + g["gen"] + ["-o", f["prog"], "--state-out", f["state"]]
    with open(f["log"], "ab") as log:
        st, to = run_cmd(gen, camp["timeout"], stdout=log, stderr=log)
    t_gen = time.monotonic() - t0
    if st != 0 or to:
        status, sig, detail, attempts, times = "error", make_sig("-", "-", "gisa gen failed"), read_text(f["log"])[-2000:], 1, {}
    else:
        status, sig, detail, attempts, times = check_program(camp, gisa, f, seed, f["prog"], camp["coverage"])
    times["gen"] = t_gen
    cov = None
    if camp["coverage"] and os.path.exists(f["cov"]):
        cov = result_path(cdir, group, seed)[:-5] + ".cov.json"
        os.replace(f["cov"], cov)
    lines = sum(1 for l in read_text(f["prog"]).splitlines() if l.strip() and not l.lstrip().startswith("//"))
    res = {
        "format": FORMAT, "group": group, "seed": seed, "status": status, "signature": sig,
        "detail": detail[:4000], "attempts": attempts, "instructions": lines,
        "time": round(time.time() - start, 4), "times": {k: round(v, 4) for k, v in times.items()},
        "finished": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "host": socket.gethostname(), "coverage": os.path.basename(cov) if cov else None,
        "work": os.path.relpath(d, cdir) if status != "pass" or camp["keep"] else None,
    }
    if status == "pass" and not camp["keep"]:
        shutil.rmtree(d, ignore_errors=True)
    write_atomic(result_path(cdir, group, seed), json.dumps(res, indent=1) + "\n")
    return res


def load_result(cdir, group, seed):
    try:
        with open(result_path(cdir, group, seed)) as f:
            r = json.load(f)
        return r if r.get("format") == FORMAT else None
    except (OSError, ValueError):
        return None


# ------------------------------------------------------------------ the campaign directory


def open_campaign(cfg_path, cdir):
    """The campaign of cfg_path in cdir: made on the first run; a re-run
    must use the same config (else its results would mix two campaigns)."""
    camp = load_config(cfg_path)
    cdir = os.path.abspath(cdir or camp["dir"] or f"{camp['name']}.campaign")
    meta = os.path.join(cdir, "campaign.json")
    if os.path.exists(meta):
        with open(meta) as f:
            old = json.load(f)
        if old.get("config_sha1") != camp["config_sha1"] or old.get("groups") != camp["groups"]:
            raise CampaignError(f"{cdir} holds a campaign of another config ({old.get('config')}): "
                                "use another --dir, or remove it")
    else:
        if os.path.exists(cdir) and os.listdir(cdir):
            raise CampaignError(f"{cdir} exists and is not a campaign directory (no campaign.json)")
        os.makedirs(cdir, exist_ok=True)
        write_atomic(meta, json.dumps(camp, indent=1) + "\n")
    return camp, cdir


def load_campaign(cdir):
    try:
        with open(os.path.join(cdir, "campaign.json")) as f:
            return json.load(f)
    except OSError:
        raise CampaignError(f"{cdir}: not a campaign directory (no campaign.json)")


# ------------------------------------------------------------------ progress


class Progress:
    """The progress line: on a terminal rewritten in place, else a line
    every 10% or 30 s (logs stay short)."""

    def __init__(self, total, done, quiet):
        self.total, self.done0, self.quiet = total, done, quiet
        self.passed = self.failed = 0
        self.start = time.monotonic()
        self.first_fail = None
        self.tty = sys.stderr.isatty()
        self.last = 0.0
        self.last_pct = -1

    def update(self, status):
        if status == "pass":
            self.passed += 1
        else:
            self.failed += 1
            if self.first_fail is None:
                self.first_fail = time.monotonic() - self.start
        self.show()

    def line(self):
        n = self.passed + self.failed
        el = time.monotonic() - self.start
        rate = n / el if el > 0 else 0.0
        left = self.total - self.done0 - n
        eta = f" eta {left / rate:.0f}s" if rate > 0 and left else ""
        return (f"[{self.done0 + n}/{self.total}] {rate:.1f} jobs/s, {self.failed} failed, "
                f"{el:.0f}s{eta}")

    def show(self, force=False):
        if self.quiet:
            return
        now = time.monotonic()
        if self.tty:
            if force or now - self.last > 0.2:
                sys.stderr.write("\r" + self.line() + "\033[K")
                sys.stderr.flush()
                self.last = now
            return
        n = self.passed + self.failed
        pct = 10 * n // max(1, self.total - self.done0)
        if force or pct != self.last_pct or now - self.last > 30:
            print(self.line(), file=sys.stderr, flush=True)
            self.last, self.last_pct = now, pct

    def end(self):
        if not self.quiet and self.tty:
            sys.stderr.write("\r" + self.line() + "\033[K\n")


# ------------------------------------------------------------------ backends


def missing_jobs(camp, cdir):
    return [j for j in job_list(camp) if not os.path.exists(result_path(cdir, *j))]


def backend_local(camp, cdir, gisa, todo, jobs, progress):
    """N jobs at a time in this process's threads (each job is processes)."""
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as ex:
        futs = [ex.submit(run_job, camp, cdir, gisa, g, s) for g, s in todo]
        try:
            for fu in concurrent.futures.as_completed(futs):
                progress.update(fu.result()["status"])
        except BaseException:
            kill_children()
            ex.shutdown(wait=True, cancel_futures=True)
            raise


def chunks(camp, size):
    jl = job_list(camp)
    return [jl[i:i + size] for i in range(0, len(jl), size)]


def array_spec(ids):
    """[0,1,2,5,7,8] -> '0-2,5,7-8'"""
    out, i = [], 0
    while i < len(ids):
        j = i
        while j + 1 < len(ids) and ids[j + 1] == ids[j] + 1:
            j += 1
        out.append(str(ids[i]) if i == j else f"{ids[i]}-{ids[j]}")
        i = j + 1
    return ",".join(out)


def backend_slurm(camp, cdir, gisa, todo, args, progress):
    """One array task per chunk of jobs (the chunks that still have a job
    to do); each task runs `regress.py --worker K`, whose results land in
    the shared campaign directory. Then waits for the array to leave the
    queue, showing the results as they appear."""
    if not todo:
        return True
    size = args.chunk
    pending = set(todo)
    ids = [k for k, ch in enumerate(chunks(camp, size)) if any(j in pending for j in ch)]
    sdir = os.path.join(cdir, "slurm")
    os.makedirs(sdir, exist_ok=True)
    script = os.path.join(sdir, "array.sh")
    write_atomic(script, "#!/bin/sh\n"
                 f"# gisa regress: array task K runs chunk K ({size} jobs) of {cdir}\n"
                 f"export GISA_PROGRAM={shlex.quote(gisa)}\n"
                 f"exec /usr/bin/python3 {shlex.quote(SCRIPT)} --worker \"$SLURM_ARRAY_TASK_ID\" "
                 f"--chunk {size} --dir {shlex.quote(cdir)}\n")
    cmd = ["sbatch", "--parsable", f"--array={array_spec(ids)}", f"--job-name=gisa-regress-{camp['name']}",
           f"--output={sdir}/%A_%a.out", f"--chdir={cdir}"] + shlex.split(args.slurm_args or "") + [script]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        raise CampaignError(f"sbatch failed (exit status {p.returncode}): {p.stderr.strip()}\n  command: {shlex.join(cmd)}")
    jobid = p.stdout.strip().split(";")[0]
    with open(os.path.join(sdir, "submitted"), "a") as f:
        f.write(f"{jobid} {array_spec(ids)}\n")
    print(f"gisa regress: submitted Slurm array job {jobid}: {len(ids)} tasks of up to {size} jobs "
          f"({len(todo)} jobs)", file=sys.stderr)
    if args.no_wait:
        return False
    seen = set()
    while True:
        for j in list(pending):
            r = load_result(cdir, *j)
            if r:
                pending.discard(j)
                progress.update(r["status"])
        if not pending:
            break
        q = subprocess.run(["squeue", "-h", "-j", jobid, "-o", "%i"], capture_output=True, text=True)
        if q.returncode == 0 and not q.stdout.strip():
            if jobid in seen:  # gone from the queue: one more look at the results
                break
            seen.add(jobid)
        time.sleep(1)
    return True


def worker(args):
    """A Slurm array task: the jobs of one chunk not yet done, in order
    ($SLURM_CPUS_PER_TASK at a time)."""
    cdir = os.path.abspath(args.dir)
    camp = load_campaign(cdir)
    ch = chunks(camp, args.chunk)
    if not 0 <= args.worker < len(ch):
        die(f"--worker {args.worker}: the campaign has {len(ch)} chunks of {args.chunk}")
    todo = [j for j in ch[args.worker] if not os.path.exists(result_path(cdir, *j))]
    n = int(os.environ.get("SLURM_CPUS_PER_TASK", "1") or 1)
    gisa = gisa_program()
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, n)) as ex:
        for r in ex.map(lambda j: run_job(camp, cdir, gisa, *j), todo):
            print(f"{r['group']} {r['seed']}: {r['status']}", flush=True)
    return 0


# ------------------------------------------------------------------ shrinking


def shrink_program(gisa, prog, state, out, out_state, test_cmd, timeout, log):
    """The one call of `gisa shrink`: the smallest program of prog, then the
    smallest state of state, on which test_cmd ('{}' the candidate program,
    '{state}' the candidate state) still fails; into out and out_state."""
    cmd = [gisa, "shrink", prog, "--state", state, "-o", out, "--state-out", out_state, "--status", "1",
           "--timeout", f"{timeout:g}", "--"] + test_cmd
    st, to = run_cmd(cmd, None, stdout=log, stderr=log)
    return st == 0 and not to


def check_candidate(args):
    """`--check GROUP:SEED:SIGID PROG [--check-state STATE]` (the shrink
    test): exit 1 when PROG fails with that signature, from STATE (default:
    the job's state), else 0."""
    cdir = os.path.abspath(args.dir)
    camp = load_campaign(cdir)
    group, seed, sigid = args.check.split(":")
    src = work_dir(cdir, group, int(seed))
    tmp = os.path.join(src, "check", f"{os.getpid()}")
    os.makedirs(tmp, exist_ok=True)
    try:
        f = job_files(tmp)
        shutil.copy(os.path.abspath(args.check_state) if args.check_state else os.path.join(src, "state.json"),
                    f["state"])
        status, sig, _, _, _ = check_program(camp, gisa_program(), f, int(seed), os.path.abspath(args.prog), False)
        return 1 if status != "pass" and sig and sig["id"] == sigid else 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


COMPARE_SH = {
    "exit": " # fails: a non-zero exit status",
    "trace": " || exit 2\n\"$GISA\" trace-diff {gold} {trace}",
    "state": " # fails: its final state (dut.json or its output) differs from gold.json",
}


def reproduce(camp, cdir, gisa, sig, runs):
    """Shrinks up to camp['shrink'] failures of a signature (those with the
    shortest programs) and bundles the smallest reproducer in
    repro/SIGID/. Kept across re-runs: a signature is shrunk once."""
    rdir = os.path.join(cdir, "repro", sig["id"])
    done = os.path.join(rdir, "repro.json")
    if os.path.exists(done):
        with open(done) as f:
            return json.load(f)
    if camp["shrink"] <= 0:
        return None
    # a timeout or an error of the harness has nothing to shrink (and each run would take the time limit)
    runs = [r for r in runs if r["status"] == "fail"]
    cands = sorted(runs, key=lambda r: (r["instructions"], r["group"], r["seed"]))[:camp["shrink"]]
    best = None
    tmpdir = rdir + ".tmp"
    shutil.rmtree(tmpdir, ignore_errors=True)
    os.makedirs(tmpdir)
    for r in cands:
        src = work_dir(cdir, r["group"], r["seed"])
        if not os.path.exists(os.path.join(src, "prog.s")):
            continue
        out = os.path.join(tmpdir, f"{r['group']}-{r['seed']}.s")
        out_state = os.path.join(tmpdir, f"{r['group']}-{r['seed']}.json")
        test = ["/usr/bin/python3", SCRIPT, "--dir", cdir, "--check", f"{r['group']}:{r['seed']}:{sig['id']}",
                "--check-state", "{state}", "{}"]
        with open(os.path.join(tmpdir, "shrink.log"), "ab") as log:
            ok = shrink_program(gisa, os.path.join(src, "prog.s"), os.path.join(src, "state.json"), out, out_state,
                                test, camp["shrink_timeout"], log)
        if not ok:
            continue
        n = sum(1 for l in read_text(out).splitlines() if l.strip() and not l.lstrip().startswith("//"))
        if best is None or n < best[0]:
            best = (n, r, out, out_state)
    if best is None:
        shutil.rmtree(tmpdir, ignore_errors=True)
        return None
    n, r, out, out_state = best
    src = work_dir(cdir, r["group"], r["seed"])
    shutil.copy(out, os.path.join(tmpdir, "prog.s"))
    shutil.copy(out_state, os.path.join(tmpdir, "state.json"))
    shutil.copy(os.path.join(src, "prog.s"), os.path.join(tmpdir, "original.s"))
    shutil.copy(os.path.join(src, "state.json"), os.path.join(tmpdir, "original.json"))
    files = job_files(rdir)
    dut = dut_command(camp, files, r["seed"], gisa)
    write_atomic(os.path.join(tmpdir, "rerun.sh"),
                 "#!/bin/sh\n# the smallest reproducer of signature "
                 f"{sig['id']} ({sig['optype']} {sig['reg']}: {sig['message']})\n"
                 f"# shrunk from {r['group']} seed {r['seed']} ({r['instructions']} instructions -> {n})\n"
                 f"cd {shlex.quote(camp['cwd'])} || exit 2\n"
                 f"GISA={shlex.quote(gisa)}; export GISA\n"
                 f"\"$GISA\" run {shlex.quote(files['prog'])} --state {shlex.quote(files['state'])} "
                 f"-o {shlex.quote(files['gold'])} --trace={shlex.quote(files['gold_trace'])} || exit 2\n"
                 f"{dut}{COMPARE_SH[camp['compare']].format(gold=shlex.quote(files['gold_trace']), trace=shlex.quote(files['trace']))}\n")
    os.chmod(os.path.join(tmpdir, "rerun.sh"), 0o755)
    info = {"signature": sig, "group": r["group"], "seed": r["seed"], "instructions": n,
            "original_instructions": r["instructions"], "prog": os.path.join("repro", sig["id"], "prog.s")}
    write_atomic(os.path.join(tmpdir, "repro.json"), json.dumps(info, indent=1) + "\n")
    shutil.rmtree(rdir, ignore_errors=True)
    os.replace(tmpdir, rdir)
    return info


# ------------------------------------------------------------------ reports


def merge(camp, cdir, gisa, wall, first_fail, quiet):
    """Everything the result files hold, as summary.txt, results.json,
    junit.xml and the merged coverage; missing jobs are reported as such.
    Returns the exit status: 0 all passed, 1 failures, 3 jobs missing."""
    results, missing = [], []
    for g, s in job_list(camp):
        r = load_result(cdir, g, s)
        if r:
            results.append(r)
        else:
            missing.append((g, s))
    sigs = {}
    for r in results:
        if r["status"] != "pass":
            sigs.setdefault(r["signature"]["id"], {"signature": r["signature"], "runs": []})["runs"].append(r)
    order = sorted(sigs.values(), key=lambda s: (-len(s["runs"]), s["signature"]["id"]))
    for s in order:
        s["repro"] = reproduce(camp, cdir, gisa, s["signature"], s["runs"])
    cov = merge_coverage(camp, cdir, gisa, results)
    passed = sum(r["status"] == "pass" for r in results)
    job_time = sum(r["time"] for r in results)
    doc = {
        "format": FORMAT, "name": camp["name"], "config": camp["config"], "compare": camp["compare"],
        "jobs": len(job_list(camp)), "done": len(results), "passed": passed, "failed": len(results) - passed,
        "missing": [{"group": g, "seed": s} for g, s in missing],
        "wall_time": wall, "first_failure_after": first_fail, "job_time": round(job_time, 3),
        "signatures": [{**s["signature"], "count": len(s["runs"]),
                        "seeds": [{"group": r["group"], "seed": r["seed"]} for r in
                                  sorted(s["runs"], key=lambda r: (r["group"], r["seed"]))],
                        "reproducer": s["repro"]} for s in order],
        "coverage": cov,
        "results": [{k: r[k] for k in ("group", "seed", "status", "attempts", "instructions", "time")} |
                    {"signature": r["signature"]["id"] if r["signature"] else None} for r in results],
    }
    write_atomic(os.path.join(cdir, "results.json"), json.dumps(doc, indent=1) + "\n")
    write_atomic(os.path.join(cdir, "junit.xml"), junit(camp, results, missing))
    text = summary(doc)
    write_atomic(os.path.join(cdir, "summary.txt"), text)
    if not quiet:
        sys.stdout.write(text)
    return 3 if missing else 1 if passed < len(results) else 0


def merge_coverage(camp, cdir, gisa, results):
    if not camp["coverage"]:
        return None
    files = [os.path.join(cdir, "results", r["group"], r["coverage"]) for r in results if r.get("coverage")]
    if not files:
        return None
    out = os.path.join(cdir, "coverage.json")
    # many files: merged in batches into the growing total (argv limits)
    total = None
    for i in range(0, len(files), 500):
        batch = ([total] if total else []) + files[i:i + 500]
        tmp = out + ".part"
        p = subprocess.run([gisa, "cov", "--json", "-o", tmp, "--merge"] + batch, capture_output=True, text=True)
        if p.returncode != 0:
            raise CampaignError(f"gisa cov --merge failed: {p.stderr.strip()}")
        os.replace(tmp, out)
        total = out
        if os.path.exists(tmp + ".lock"):  # gisa cov's lock of its output
            os.remove(tmp + ".lock")
    p = subprocess.run([gisa, "cov", "-o", os.path.join(cdir, "coverage.txt"), "--merge", out],
                       capture_output=True, text=True)
    if p.returncode != 0:
        raise CampaignError(f"gisa cov --merge failed: {p.stderr.strip()}")
    text = read_text(os.path.join(cdir, "coverage.txt"))
    lines = text.splitlines()
    holes = [l for l in lines if re.search(r"never|not hit|missing", l)]
    totals = [l.strip() for l in lines if re.match(r"\s+\S.*\d+/\d+\s+[\d.]+%$", l)]
    return {"file": "coverage.json", "report": "coverage.txt", "files": len(files), "totals": totals,
            "holes": len(holes)}


def junit(camp, results, missing):
    """JUnit XML as Jenkins, GitLab and the Ant schema read it: one
    testsuite per group, one testcase per seed."""
    root = ET.Element("testsuites", name=camp["name"])
    tot = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0, "time": 0.0}
    by_group = {}
    for r in results:
        by_group.setdefault(r["group"], []).append(r)
    for g, s in missing:
        by_group.setdefault(g, []).append({"group": g, "seed": s, "status": "missing", "time": 0.0})
    stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S")
    for gi, g in enumerate(x["name"] for x in camp["groups"]):
        rs = sorted(by_group.get(g, []), key=lambda r: r["seed"])
        ts = ET.SubElement(root, "testsuite", name=f"{camp['name']}.{g}", id=str(gi), package=camp["name"],
                           timestamp=stamp, hostname=socket.gethostname())
        c = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0, "time": 0.0}
        for r in rs:
            tc = ET.SubElement(ts, "testcase", classname=f"{camp['name']}.{g}", name=f"seed {r['seed']}",
                               time=f"{r['time']:.3f}")
            c["tests"] += 1
            c["time"] += r["time"]
            if r["status"] == "fail" or r["status"] == "timeout":
                c["failures"] += 1
                s = r["signature"]
                el = ET.SubElement(tc, "failure", message=f"{s['optype']} {s['reg']}: {s['message']}",
                                   type=f"signature {s['id']}")
                el.text = r.get("detail", "")
            elif r["status"] == "error":
                c["errors"] += 1
                el = ET.SubElement(tc, "error", message=r["signature"]["message"], type="error")
                el.text = r.get("detail", "")
            elif r["status"] == "missing":
                c["skipped"] += 1
                ET.SubElement(tc, "skipped", message="not run (re-run the campaign to complete it)")
        for k, v in c.items():
            ts.set(k, f"{v:.3f}" if k == "time" else str(v))
            tot[k] += v
    for k, v in tot.items():
        root.set(k, f"{v:.3f}" if k == "time" else str(v))
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def summary(doc):
    out = [f"campaign {doc['name']}: {doc['jobs']} jobs, {doc['done']} done, {doc['passed']} passed, "
           f"{doc['failed']} failed" + (f", {len(doc['missing'])} not run" if doc["missing"] else "")]
    if doc.get("wall_time") is not None:
        ff = doc.get("first_failure_after")
        out.append(f"time: {doc['wall_time']:.1f} s wall this run, {doc['job_time']:.1f} s in jobs"
                   + (f", first failure after {ff:.1f} s" if ff is not None else ""))
    if doc["signatures"]:
        out.append("")
        out.append(f"{'count':>6}  {'signature':<10}  {'optype':<8} {'reg':<4} message")
        for s in doc["signatures"]:
            out.append(f"{s['count']:>6}  {s['id']:<10}  {s['optype']:<8} {s['reg']:<4} {s['message']}")
            first = s["seeds"][0]
            rp = s.get("reproducer")
            if rp:
                n = rp["instructions"]
                out.append(f"{'':>8}reproducer: {rp['prog']} ({n} instruction{'' if n == 1 else 's'}, from "
                           f"{rp['group']} seed {rp['seed']}: {rp['original_instructions']}); "
                           f"repro/{s['id']}/rerun.sh")
            else:
                out.append(f"{'':>8}first: {first['group']} seed {first['seed']} (not shrunk)")
    if doc["missing"]:
        m = doc["missing"]
        out.append("")
        names = ", ".join(f"{x['group']}:{x['seed']}" for x in m[:10])
        out.append(f"not run: {names}"
                   + (" ..." if len(m) > 10 else "") + " (re-run the campaign to complete it)")
    cov = doc.get("coverage")
    if cov:
        out.append("")
        out.append(f"coverage ({cov['files']} runs merged, {cov['holes']} holes: coverage.txt):")
        out.extend(f"  {t}" for t in cov["totals"])
    return "\n".join(out) + "\n"


# ------------------------------------------------------------------ rerun one job


def rerun(args):
    camp, cdir = open_campaign(args.config, args.dir)
    gisa = gisa_program()
    group = args.group or camp["groups"][0]["name"]
    group_of(camp, group)
    seed = int(args.rerun, 0)
    d = os.path.join(cdir, "rerun", group, str(seed))
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    f = job_files(d)
    g = group_of(camp, group)
    gen = [gisa, "gen", "--seed", str(seed)] + g["gen"] + ["-o", f["prog"], "--state-out", f["state"]]
    print("$ " + shlex.join(gen))
    if subprocess.run(gen).returncode != 0:
        return 2
    status, sig, detail, _, _ = check_program(camp, gisa, f, seed, f["prog"], False)
    print(f"$ cd {shlex.quote(camp['cwd'])} && {dut_command(camp, f, seed, gisa)}")
    print(f"{group} seed {seed}: {status}" + (f" [{sig['id']}] {sig['optype']} {sig['reg']}: {sig['message']}" if sig else ""))
    if detail:
        print(detail.rstrip())
    print(f"files: {d}")
    return 0 if status == "pass" else 1


# ------------------------------------------------------------------ main


def main(argv):
    ap = argparse.ArgumentParser(prog="gisa regress", description=(
        "Run a regression campaign: generated programs (gisa gen --seed), the golden model and the design "
        "under test, compared; failures grouped by signature and shrunk; results as a summary, JSON, JUnit "
        "XML and merged coverage. A re-run completes only the jobs not done. docs/verification.md, "
        "'Campaigns'."))
    ap.add_argument("config", nargs="?", help="the campaign's config (TOML)")
    ap.add_argument("-d", "--dir", help="campaign directory (default: [campaign] dir, else NAME.campaign)")
    ap.add_argument("-j", "--jobs", type=int, default=1, help="local backend: jobs at a time (default 1)")
    ap.add_argument("--backend", choices=("local", "slurm"), default="local", help="where jobs run (default local)")
    ap.add_argument("--chunk", type=int, default=50, help="slurm: jobs per array task (default 50)")
    ap.add_argument("--slurm-args", default="", help="slurm: more sbatch options, one string ('-p short -t 10')")
    ap.add_argument("--no-wait", action="store_true", help="slurm: submit and return; --report merges later")
    ap.add_argument("--report", action="store_true", help="merge and report what the directory holds; run nothing")
    ap.add_argument("--rerun", metavar="SEED", help="re-run one job alone, keeping its files, and show its commands")
    ap.add_argument("--group", help="the group of --rerun (default: the first)")
    ap.add_argument("-q", "--quiet", action="store_true", help="no progress line and no summary on stdout")
    ap.add_argument("--worker", type=int, help=argparse.SUPPRESS)
    ap.add_argument("--check", help=argparse.SUPPRESS)
    ap.add_argument("--check-state", help=argparse.SUPPRESS)
    ap.add_argument("prog", nargs="?", help=argparse.SUPPRESS)
    # '--slurm-args "-p short"': a value that starts with '-' (argparse would take it for an option)
    argv = list(argv)
    for i in range(len(argv) - 1):
        if argv[i] == "--slurm-args":
            argv[i:i + 2] = ["--slurm-args=" + argv[i + 1], ""]
    args = ap.parse_args([a for a in argv if a != ""])
    if args.check:
        args.prog = args.prog or args.config
        return check_candidate(args)
    if args.worker is not None:
        return worker(args)
    if args.report and not args.config:
        if not args.dir:
            ap.error("--report needs CONFIG or --dir DIR")
        camp, cdir = load_campaign(args.dir), os.path.abspath(args.dir)
        return merge(camp, cdir, gisa_program(), None, None, args.quiet)
    if not args.config:
        ap.error("the config file is missing")
    if args.jobs < 1 or args.chunk < 1:
        ap.error("-j and --chunk must be at least 1")
    if args.rerun is not None:
        return rerun(args)
    camp, cdir = open_campaign(args.config, args.dir)
    gisa = gisa_program()
    if args.report:
        return merge(camp, cdir, gisa, None, None, args.quiet)
    todo = missing_jobs(camp, cdir)
    total = len(job_list(camp))
    if not args.quiet:
        print(f"gisa regress: {cdir}: {total} jobs, {total - len(todo)} done before, {len(todo)} to run "
              f"({args.backend}{f' -j{args.jobs}' if args.backend == 'local' else ''})", file=sys.stderr)
    progress = Progress(total, total - len(todo), args.quiet)
    start = time.monotonic()
    try:
        if args.backend == "local":
            backend_local(camp, cdir, gisa, todo, args.jobs, progress)
        elif not backend_slurm(camp, cdir, gisa, todo, args, progress):
            return 0
    except KeyboardInterrupt:
        kill_children()
        progress.end()
        left = len(missing_jobs(camp, cdir))
        print(f"gisa regress: interrupted: {total - left} of {total} jobs done; run the same command again "
              "to complete the others", file=sys.stderr)
        return 130
    progress.end()
    wall = round(time.monotonic() - start, 3)
    return merge(camp, cdir, gisa, wall, None if progress.first_fail is None else round(progress.first_fail, 3),
                 args.quiet)


def on_term(signum, frame):
    raise KeyboardInterrupt


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, on_term)
    try:
        sys.exit(main(sys.argv[1:]))
    except CampaignError as e:
        die(str(e))
    except BrokenPipeError:
        sys.exit(2)
