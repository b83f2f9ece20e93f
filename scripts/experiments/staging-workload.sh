# Sourced by the staging experiments (staging.sh, insights-staging.sh): the workload they train,
# a dataset of FILES npy files of FILE_MIB MiB on a capacity tier DIR/pfs throttled to PFS_BW,
# and a fast tier FAST to stage to.
#   write_staging_workload YAML MODEL DIR FAST PFS_BW FILES FILE_MIB EPOCHS COMPUTE
write_staging_workload() {
  local yaml=$1 model=$2 dir=$3 fast=$4 pfs_bw=$5 files=$6 file_mib=$7 epochs=$8 compute=$9
  cat > "$yaml" <<YAML
model: {name: $model}
framework: pytorch
workflow: {generate_data: false, train: true, stage: false}
storage:
  tiers:
    pfs: {path: $dir/pfs, bandwidth_limit: $pfs_bw}
    nvme: {path: $fast}
stage: {to: nvme, threads: 4}
dataset: {data_folder: $dir/pfs/data, format: npy, num_files_train: $files, num_samples_per_file: 1,
          record_length_bytes: $((file_mib * 1048576))}
reader: {data_loader: pytorch, batch_size: 4, read_threads: 4, file_shuffle: seed, sample_shuffle: seed}
train: {epochs: $epochs, computation_time: $compute}
YAML
}
