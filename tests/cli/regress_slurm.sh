#!/usr/bin/env bash
# `gisa regress --backend slurm` on a real one-node Slurm cluster: munged,
# slurmctld and slurmd started here as root with a generated slurm.conf for
# localhost (tests/cli/regress/slurm_cluster.bash: all under a temporary
# directory, no cgroups, stopped afterwards, on failure too). A campaign of
# 200 seeds against the stand-in DUT with its injected bugs
# (tests/cli/regress/dut.py) is submitted as array jobs of 25 seeds each;
# its failures, signatures, shrunk reproducers and merged coverage must be
# those of the local backend for the same seeds; --slurm-args reaches
# sbatch; a re-run after two results are lost submits only their two
# chunks; --no-wait returns after sbatch and --report merges later.
# Skipped (visibly) where the daemons cannot start: not root, or Slurm or
# munge not installed; under CI (GISA_CI=1, where scripts/deps.sh --ci
# installs them and the tests run as root) that is a failure.
# Env: GISA_BIN, GISA_SOURCE_DIR.
source "$(dirname "$0")/lib/harness.bash" regress_slurm
source "$SRC/tests/cli/regress/slurm_cluster.bash"
[ -x /usr/bin/python3 ] || skip "no /usr/bin/python3 (gisa regress runs on it)"
for tool in munged mungekey slurmctld slurmd sbatch squeue sinfo; do
    command -v "$tool" >/dev/null || ci_skip "$tool is not installed: no Slurm cluster to test on (Debian: slurm-wlm, munge)"
done
[ "$(id -u)" -eq 0 ] || ci_skip "not root: the Slurm daemons cannot start here"
trap 'slurm_stop; rm -rf "$T"' EXIT
slurm_start "$T/cluster" || ci_skip "the one-node Slurm cluster did not start: $slurm_why"
ok

cat >r.toml <<TOML
[campaign]
name = "bugs"
seeds = "1-200"
compare = "trace"
dut = "$SRC/tests/cli/regress/dut.py trace {prog} {state} {trace} {dir}/gold.trace"
timeout = 30
[gen]
count = 12
include = "IADD_RR,LOP3_RRR,SHF_RRR,ISETP_RR,SEL_RR"
regs = 32
TOML

expect 1 "the campaign on Slurm (failures: exit 1)" "$G" regress r.toml --backend slurm --chunk 25 -d s \
    --slurm-args "--time=5 --job-name=gisa-test"
cp err s.err
check "submitted as one array job of 8 tasks" has s.err '^gisa regress: submitted Slurm array job [0-9]+: 8 tasks of up to 25 jobs \(200 jobs\)$'
check "... all 200 done" has out '^campaign bugs: 200 jobs, 200 done, [0-9]+ passed, [0-9]+ failed$'
check "... each task wrote its log" test "$(ls s/slurm/*.out | wc -l)" -eq 8
check "... the tasks ran the jobs (their logs name them)" test "$(cat s/slurm/*.out | grep -cE '^default [0-9]+: (pass|fail)$')" -eq 200
jobid=$(awk '{ print $1 }' s/slurm/submitted)
check "... --slurm-args reached sbatch (the job name)" has <(scontrol show job "$jobid" 2>&1) 'JobName=gisa-test'

expect 1 "the same campaign locally" "$G" regress r.toml -j2 -d l -q
project() {
    /usr/bin/python3 - "$1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1] + "/results.json"))
print(d["jobs"], d["done"], d["passed"], d["failed"])
for r in sorted(d["results"], key=lambda r: r["seed"]):
    print(r["seed"], r["status"], r["signature"])
for s in d["signatures"]:
    r = s["reproducer"]
    print(s["id"], s["optype"], s["reg"], s["message"], s["count"], [x["seed"] for x in s["seeds"]],
          r and (r["seed"], r["instructions"]))
PY
}
project s >s.txt
project l >l.txt
check "Slurm and local: the same results, signatures and reproducers" cmp -s s.txt l.txt
check "... at least two signatures (the two bugs)" test "$(sed -n '/^[0-9a-f]\{10\} /p' s.txt | wc -l)" -ge 2
for p in l/repro/*/prog.s; do
    check "... the same shrunk program: ${p#l/}" cmp -s "$p" "s/${p#l/}"
done
check "... the same merged coverage" cmp -s s/coverage.json l/coverage.json
check "... the same coverage report" cmp -s s/coverage.txt l/coverage.txt
check "... the same number of holes" test "$(grep -c never s/coverage.txt)" -eq "$(grep -c never l/coverage.txt)"

# jobs lost (a node died): only their chunks are submitted again
rm s/results/default/30.json s/results/default/180.json
expect 1 "re-run on Slurm after losing two results" "$G" regress r.toml --backend slurm --chunk 25 -d s
check "... submits only their two chunks" test "$(tail -1 s/slurm/submitted | cut -d' ' -f2)" = "1,7"
check "... runs only those two jobs" has err ': 200 jobs, 198 done before, 2 to run'
project s >s2.txt
check "... and ends as before" cmp -s s.txt s2.txt

# --no-wait, then --report once the array is done
sed 's/^seeds = .*/seeds = "1-20"/' r.toml >n.toml
expect 0 "--no-wait returns after sbatch" "$G" regress n.toml --backend slurm --chunk 10 --no-wait -d n
check "... having submitted 2 tasks" has err 'submitted Slurm array job [0-9]+: 2 tasks'
for _ in $(seq 600); do [ -z "$(squeue -h -o %i)" ] && break; sleep 0.1; done
expect 1 "--report merges it" "$G" regress --report -d n
check "... all 20 done" has out '^campaign bugs: 20 jobs, 20 done'
check "... as the local run did for those seeds" test "$(project n | sed 1d | head -20)" = "$(sed 1d l.txt | head -20)"

expect 1 "re-run on Slurm: nothing left to submit" "$G" regress r.toml --backend slurm -d s
check "... no job submitted" hasnt err 'submitted Slurm array job'
finish
