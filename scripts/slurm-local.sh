#!/usr/bin/env bash
# scripts/slurm-local.sh start|stop|status — a single-node Slurm on this
# machine (slurmctld + slurmd on localhost, munge authentication) for
# testing `ptxemu sweep --backend slurm`.  Needs root; installs slurm-wlm
# and munge with apt-get when they are missing.  Its configuration and
# logs live under /var/lib/ptxemu-slurm; `stop` ends the daemons it started
# (by their pid files) and leaves the packages installed.
set -euo pipefail
BASE=/var/lib/ptxemu-slurm
CONF=$BASE/slurm.conf
export SLURM_CONF=$CONF

die() { echo "slurm-local: $*" >&2; exit 1; }

start() {
    [ "$(id -u)" -eq 0 ] || die "needs root (installs packages and starts daemons)"
    if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
        echo "slurm-local: installing slurm-wlm munge"
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
            apt-get install -y -qq slurm-wlm munge >/dev/null || die "apt-get install failed"
    fi
    mkdir -p $BASE/ctld $BASE/d $BASE/log /run/munge /var/log/munge /var/lib/munge /etc/munge
    # munge: a key, then the daemon as user munge
    if [ ! -s /etc/munge/munge.key ]; then
        dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 status=none
    fi
    chown -R munge:munge /etc/munge /run/munge /var/log/munge /var/lib/munge
    chmod 0700 /etc/munge /var/lib/munge; chmod 0400 /etc/munge/munge.key; chmod 0755 /run/munge
    if ! munge -n >/dev/null 2>&1; then
        runuser -u munge -- /usr/sbin/munged --pid-file=/run/munge/munged.pid \
            || die "munged did not start"
        sleep 0.5
        munge -n | unmunge >/dev/null 2>&1 || die "munge does not work"
    fi
    local host cpus mem
    host=$(hostname -s)
    cpus=$(nproc)
    mem=$(( $(awk '/MemTotal/ {print $2}' /proc/meminfo) / 1024 / 2 ))
    cat > $CONF <<CONF
ClusterName=ptxemu-local
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
StateSaveLocation=$BASE/ctld
SlurmdSpoolDir=$BASE/d
SlurmctldPidFile=$BASE/slurmctld.pid
SlurmdPidFile=$BASE/slurmd.pid
SlurmctldLogFile=$BASE/log/slurmctld.log
SlurmdLogFile=$BASE/log/slurmd.log
SlurmctldPort=6817
SlurmdPort=6818
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MpiDefault=none
SlurmdTimeout=60
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=local Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
    if ! [ -s $BASE/slurmctld.pid ] || ! kill -0 "$(cat $BASE/slurmctld.pid)" 2>/dev/null; then
        slurmctld -f $CONF || die "slurmctld did not start (see $BASE/log/slurmctld.log)"
    fi
    if ! [ -s $BASE/slurmd.pid ] || ! kill -0 "$(cat $BASE/slurmd.pid)" 2>/dev/null; then
        slurmd -f $CONF || die "slurmd did not start (see $BASE/log/slurmd.log)"
    fi
    for _ in $(seq 60); do
        state=$(sinfo -h -N -o %t 2>/dev/null | head -1 || true)
        case "$state" in
            idle*|mix*|alloc*) echo "slurm-local: up (node $host, $cpus CPUs; SLURM_CONF=$CONF)"; return 0 ;;
            down*|drain*) scontrol update nodename="$host" state=resume >/dev/null 2>&1 || true ;;
        esac
        sleep 1
    done
    die "the node did not become idle (sinfo: '${state:-no answer}'; logs in $BASE/log)"
}

stop() {
    for d in slurmd slurmctld; do
        if [ -s $BASE/$d.pid ]; then
            kill "$(cat $BASE/$d.pid)" 2>/dev/null || true
            rm -f $BASE/$d.pid
        fi
    done
    if [ -s /run/munge/munged.pid ]; then
        kill "$(cat /run/munge/munged.pid)" 2>/dev/null || true
    fi
    echo "slurm-local: stopped"
}

case "${1:-}" in
    start) start ;;
    stop) stop ;;
    status) SLURM_CONF=$CONF sinfo ;;
    *) echo "usage: scripts/slurm-local.sh start|stop|status" >&2; exit 2 ;;
esac
