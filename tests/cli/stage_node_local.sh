#!/usr/bin/env bash
# stage_node_local.sh FOLDER: staging to a node-local tier (nvme/{node}) on 2 emulated nodes
# (docs/staging.md): every node's lowest rank prepares its node's copy — its folders, the free
# space check, the removal of partial files an interrupted staging left — and gets the dataset's
# marker, so that training on every node reads a complete staged dataset; a node whose copy does
# not fit its tier's capacity is refused, naming the node.
# Environment: DLBENCH, MPIEXEC_LINE, TINY, EMULATE (scripts/slurm/emulate-nodes.sh).
set -u
rm -rf "$1" && mkdir -p "$1" && cd "$1" || exit 1
fail() { echo "stage_node_local: FAIL: $*"; exit 1; }
TIERS="++workload.dataset.data_folder=$PWD/pfs/data ++workload.storage.tiers.pfs.path=$PWD/pfs ++workload.storage.tiers.nvme.path=\"$PWD/nvme/{node}\" ++workload.stage.to=nvme"
"$DLBENCH" generate "$TINY" $TIERS -q -o gen >log 2>&1 || { cat log; fail "generate"; }
# An interrupted staging on node n1 left a partial file there.
partial=nvme/n1/data/train/.img_0_of_8.npz.dlbench-partial
mkdir -p nvme/n1/data/train && touch nvme/n1/data/.dlbench-folder "$partial"
$MPIEXEC_LINE 2 "$EMULATE" 1 "$DLBENCH" run "$TINY" $TIERS ++workload.workflow.generate_data=False \
  ++workload.workflow.stage=True -q -o out >log 2>&1 || { cat log; fail "run with staging"; }
for node in n0 n1; do
  [ -e "nvme/$node/data/.dlbench-dataset.json" ] || fail "node $node's staged copy has no dataset marker"
  [ -n "$(ls "nvme/$node/data/train")" ] || fail "node $node staged nothing"
done
[ -e "$partial" ] && fail "node n1's partial file was not removed"
# A node's copy that does not fit its node's tier: refused before anything is copied, naming the node.
$MPIEXEC_LINE 2 "$EMULATE" 1 "$DLBENCH" stage "$TINY" $TIERS ++workload.storage.tiers.nvme.capacity=8KiB \
  --all-files -q -o out_small >log 2>&1
[ $? = 2 ] || { cat log; fail "a node's copy larger than the tier's capacity was not refused"; }
[ "$(grep -c "stage: the dataset's files to stage on node n0 take .* more than tier nvme's capacity of 8 KiB" log)" = 1 ] ||
  { cat log; fail "no one-line message naming the node and the capacity"; }
echo "stage_node_local: OK"
