#!/usr/bin/env bash
# Emulates several nodes on one machine: runs COMMAND with DLBENCH_NODE=n<rank / RANKS_PER_NODE>,
# so that ranks 0..K-1 are node n0, K..2K-1 node n1, ... (docs/cluster.md). A node-local tier
# whose path holds {node} then gets one folder per emulated node.
#
#   mpiexec -n 4 scripts/slurm/emulate-nodes.sh 2 dlbench checkpoint WORKLOAD ...
#   srun -n 4 scripts/slurm/emulate-nodes.sh 2 dlbench run WORKLOAD ...
#
# The rank comes from the launcher's environment: OMPI_COMM_WORLD_RANK (Open MPI), PMIX_RANK,
# PMI_RANK (MPICH) or SLURM_PROCID (srun). With Open MPI alone, `mpiexec -x DLBENCH_NODE=...`
# cannot differ per rank; this wrapper can.
set -euo pipefail
if [ $# -lt 2 ] || ! [[ "$1" =~ ^[1-9][0-9]*$ ]]; then
  echo "usage: emulate-nodes.sh RANKS_PER_NODE COMMAND [ARGS...]" >&2
  exit 2
fi
per_node=$1
shift
rank=${OMPI_COMM_WORLD_RANK:-${PMIX_RANK:-${PMI_RANK:-${SLURM_PROCID:-}}}}
if [ -z "$rank" ]; then
  echo "emulate-nodes.sh: no rank in the environment (start it with mpiexec or srun)" >&2
  exit 2
fi
export DLBENCH_NODE="n$((rank / per_node))"
exec "$@"
