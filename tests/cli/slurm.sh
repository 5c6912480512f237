# slurm.sh — a sharded ciat run and a sharded cdat run, each as a Slurm job
# array and a dependent merge job (examples/slurm/ciat-shards.sh and
# cdat-shards.sh, docs/sharding.md §6 and §9), on a single-node
# Slurm that this test starts in a temporary directory: munged, slurmctld and
# slurmd from Debian's munge and slurm-wlm (scripts/install-deps installs
# them), on ports of their own, stopped at the end. The merged outputs must be
# those of the run without --shard, byte for byte. Where Slurm is not
# installed or cannot start here, the test says why and is skipped.
skip() { echo "(slurm: skipped: $*)"; }
for cmd in munged mungekey slurmctld slurmd sbatch squeue scontrol sinfo; do
    if ! command -v "$cmd" >/dev/null 2>&1; then
        skip "no $cmd (scripts/install-deps installs munge and slurm-wlm)"
        return 0
    fi
done
if [ "$(id -u)" != 0 ]; then
    skip "slurmd runs jobs as their users only when started as root"
    return 0
fi

# A short directory: munge's socket path must fit a socket address.
S=$(mktemp -d /tmp/dsm-slurm.XXXXXX)
slurm_stop() {
    SLURM_CONF=$S/slurm.conf scontrol shutdown >/dev/null 2>&1
    for pidf in "$S/slurmctld.pid" "$S/slurmd.pid" "$S/munged.pid"; do
        [ -f "$pidf" ] || continue
        pid=$(cat "$pidf")
        kill "$pid" 2>/dev/null
        for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -9 "$pid" 2>/dev/null
    done
    rm -rf "$S"
}
trap slurm_stop EXIT

# free_port FROM: a TCP port at or above FROM that nothing listens on.
free_port() {
    local p=$1
    while (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; do p=$((p + 1)); done
    echo "$p"
}
base=$((20000 + $$ % 20000))
ctld_port=$(free_port "$base")
d_port=$(free_port $((ctld_port + 1)))
host=$(hostname -s)
mkdir -p "$S/state" "$S/spool" "$S/log"
cat >"$S/slurm.conf" <<EOF
ClusterName=dsmtrace-test
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$ctld_port
SlurmdPort=$d_port
AuthType=auth/munge
AuthInfo=socket=$S/munge.sock
CredType=cred/munge
StateSaveLocation=$S/state
SlurmdSpoolDir=$S/spool
SlurmctldPidFile=$S/slurmctld.pid
SlurmdPidFile=$S/slurmd.pid
SlurmctldLogFile=$S/log/slurmctld.log
SlurmdLogFile=$S/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
NodeName=$host NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=dsmtrace Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF=$S/slurm.conf
mungekey -c -f -k "$S/munge.key" >/dev/null 2>&1
if ! munged -f -S "$S/munge.sock" --key-file="$S/munge.key" --log-file="$S/log/munged.log" \
    --pid-file="$S/munged.pid" --seed-file="$S/munged.seed" 2>"$S/log/munged.err"; then
    skip "munged does not start here: $(tail -1 "$S/log/munged.err")"
    return 0
fi
if ! slurmctld -f "$SLURM_CONF" 2>"$S/log/ctld.err" || ! slurmd -f "$SLURM_CONF" -N "$host" 2>"$S/log/d.err"; then
    skip "slurmctld or slurmd does not start here: $(tail -1 "$S/log/ctld.err" "$S/log/d.err" | grep -v '^==' | head -1)"
    return 0
fi
up=""
for _ in $(seq 100); do
    state=$(sinfo -h -o %t 2>/dev/null)
    case $state in idle* | mix* | alloc*) up=1; break ;; esac
    sleep 0.3
done
if [ -z "$up" ]; then
    skip "the node did not come up (state '${state:-none}'): $(tail -1 "$S/log/slurmd.log" 2>/dev/null)"
    return 0
fi

# wait_job ID: until the job ends; its state in $state.
wait_job() {
    state=""
    for _ in $(seq 600); do             # the dependency resolves at the controller's next pass
        state=$(scontrol show job "$1" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p')
        case $state in COMPLETED | FAILED | CANCELLED | TIMEOUT | NODE_FAIL | OUT_OF_MEMORY) break ;; esac
        sleep 0.2
    done
}

# The run without --shard, and the same run in 3 parts on Slurm.
awk -v seed=791 -v threads=4 -v n=5000 -f "$CLI_DIR/ciat/randset.awk" >r.txt
smait asm r.txt r
mkdir whole out
ciat -q -o out --json r.4
mv out/* whole/
check "ciat-shards.sh submits the array and the merge" \
    sh -c 'CIAT=$(command -v ciat) "$1" 3 out --json r.4 >ids && wc -w <ids' sh "$SRC/examples/slurm/ciat-shards.sh" <<'EOF'
2
--- exit 0
EOF
read -r array merge <ids
wait_job "$merge"
check "the merge job ran after the array ($array) and completed" echo "$state" <<'EOF'
COMPLETED
--- exit 0
EOF
check "each task wrote its part, the merge the outputs" ls out <<'EOF'
ciat-merge.log
ciat-shard-0.log
ciat-shard-1.log
ciat-shard-2.log
r.4.ciat_partial.0-of-3
r.4.ciat_partial.1-of-3
r.4.ciat_partial.2-of-3
r.4.ciat_report
r.4.ciat_report.json
r.4.memory
--- exit 0
EOF
for f in r.4.ciat_report r.4.ciat_report.json r.4.memory; do
    check_same "on Slurm, 3 parts: $f is the whole run's" "whole/$f" "out/$f"
done

# cdat: the run without --shard, and the same machine in 4 parts on Slurm.
mkdir cwhole cout
cdat -q -o cwhole -p --json r.4 4x4      # the command line the tasks run, but for -o
check "cdat-shards.sh submits the array and the merge" \
    sh -c 'CDAT=$(command -v cdat) "$1" 4 cout -p --json r.4 4x4 >cids && wc -w <cids' sh \
    "$SRC/examples/slurm/cdat-shards.sh" <<'EOF'
2
--- exit 0
EOF
read -r carray cmerge <cids
wait_job "$cmerge"
check "the cdat merge job ran after the array ($carray) and completed" echo "$state" <<'EOF'
COMPLETED
--- exit 0
EOF
check "each cdat task wrote its part, the merge the report" ls cout <<'EOF'
cdat-merge.log
cdat-shard-0.log
cdat-shard-1.log
cdat-shard-2.log
cdat-shard-3.log
r.4.cdat_partial.0-of-4
r.4.cdat_partial.1-of-4
r.4.cdat_partial.2-of-4
r.4.cdat_partial.3-of-4
r.4.cdat_report
r.4.cdat_report.json
--- exit 0
EOF
# The command lines differ by -o only: the whole run's went to cwhole.
for f in r.4.cdat_report r.4.cdat_report.json; do
    sed 's/cwhole/cout/' "cwhole/$f" >"cwhole/$f.as-cout"
    check_same "on Slurm, cdat in 4 parts: $f is the whole run's" "cwhole/$f.as-cout" "cout/$f"
done
