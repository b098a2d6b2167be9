# A one-node Slurm cluster on this machine for the tests (sourced): munged,
# slurmctld and slurmd, as root, everything under a directory of its own
# (config, keys, sockets, state, logs), on free ports; no cgroups
# (proctrack/linuxproc, task/none). slurm_start DIR: 0 when sbatch works,
# else 1 with the reason in $slurm_why; slurm_stop: stops what started
# (by pid). Sets SLURM_CONF for the client commands.
slurm_pids=()
slurm_why=""

free_port() {
    /usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

slurm_start() {
    local d=$1
    mkdir -p "$d/state" "$d/spool" "$d/munge"
    chmod 700 "$d/munge"
    if ! mungekey -c -k "$d/munge/munge.key" -b 1024 2>"$d/mungekey.log"; then
        slurm_why="mungekey failed: $(head -1 "$d/mungekey.log")"
        return 1
    fi
    chmod 400 "$d/munge/munge.key"
    munged -f --key-file="$d/munge/munge.key" --socket="$d/munge/munge.sock" --pid-file="$d/munge/munged.pid" \
        --log-file="$d/munge/munged.log" --seed-file="$d/munge/munged.seed" --num-threads=2 2>"$d/munged.err" || {
        slurm_why="munged did not start: $(head -1 "$d/munged.err")"
        return 1
    }
    slurm_pids+=("$(cat "$d/munge/munged.pid")")
    local node cpus mem
    node=$(hostname -s)
    cpus=$(nproc)
    mem=$(slurmd -C 2>/dev/null | grep -oE 'RealMemory=[0-9]+' | cut -d= -f2)
    cat >"$d/slurm.conf" <<CONF
ClusterName=gisatest
SlurmctldHost=$node(127.0.0.1)
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$(free_port)
SlurmdPort=$(free_port)
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$d/munge/munge.sock
StateSaveLocation=$d/state
SlurmdSpoolDir=$d/spool
SlurmctldPidFile=$d/slurmctld.pid
SlurmdPidFile=$d/slurmd.pid
SlurmctldLogFile=$d/slurmctld.log
SlurmdLogFile=$d/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MpiDefault=none
SlurmctldTimeout=30
SlurmdTimeout=30
MinJobAge=600
MaxArraySize=10001
NodeName=$node NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=${mem:-1000} State=UNKNOWN
PartitionName=test Nodes=$node Default=YES MaxTime=INFINITE State=UP
CONF
    export SLURM_CONF=$d/slurm.conf
    slurmctld -f "$d/slurm.conf" 2>"$d/slurmctld.err" || {
        slurm_why="slurmctld did not start: $(tail -1 "$d/slurmctld.err")"
        return 1
    }
    local i
    for i in $(seq 50); do [ -s "$d/slurmctld.pid" ] && break; sleep 0.1; done
    [ -s "$d/slurmctld.pid" ] && slurm_pids+=("$(cat "$d/slurmctld.pid")")
    slurmd -f "$d/slurm.conf" 2>"$d/slurmd.err" || {
        slurm_why="slurmd did not start: $(tail -1 "$d/slurmd.err")"
        return 1
    }
    for i in $(seq 50); do [ -s "$d/slurmd.pid" ] && break; sleep 0.1; done
    [ -s "$d/slurmd.pid" ] && slurm_pids+=("$(cat "$d/slurmd.pid")")
    # the node must be idle before a job can start
    for i in $(seq 100); do
        sinfo -h -o %t 2>/dev/null | grep -qE '^idle' && return 0
        sleep 0.2
    done
    slurm_why="the node did not become idle: $(sinfo -h -o '%t %E' 2>&1 | head -1); $(tail -2 "$d/slurmd.log" 2>/dev/null | tr '\n' ' ')"
    return 1
}

slurm_stop() {
    local p i
    for p in "${slurm_pids[@]}"; do kill "$p" 2>/dev/null || true; done
    for i in $(seq 50); do
        local alive=0
        for p in "${slurm_pids[@]}"; do kill -0 "$p" 2>/dev/null && alive=1; done
        [ "$alive" = 0 ] && break
        sleep 0.1
    done
    for p in "${slurm_pids[@]}"; do kill -9 "$p" 2>/dev/null || true; done
    slurm_pids=()
}
