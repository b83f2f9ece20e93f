# Rules that live in config/ (config::Validate) fail when the workload is loaded: exit 2, the key
# and where it was set, printed once under mpiexec, and before any work (no output folder is
# made). Each of these rules was once checked, or only checked, by the module that used the
# value, after the run had started.
set(VALIDATION ${SCRATCH}/validation)
file(MAKE_DIRECTORY ${VALIDATION})
# dlbench_validation_test(NAME "MESSAGE REGEX" COMMAND WORKLOAD OVERRIDES...)
function(dlbench_validation_test name message command workload)
  dlbench_cli_test(validation_${name} 2 --once "${message}" --no-file ${VALIDATION}/${name}
    -- ${MPIEXEC} 2 ${DLBENCH} ${command} ${workload} --output ${VALIDATION}/${name} ${ARGN})
  set_tests_properties(cli.validation_${name} PROPERTIES LABELS "cli;mpi")
endfunction()

# Storage tiers (were storage/tier_env.cpp's).
dlbench_validation_test(tiers_on_one_folder
  "storage.tiers.b.path: '${VALIDATION}/t/' is also the folder of tier a. give each tier its own folder \\(override"
  run ${DATA}/workloads/tiny_checkpoint.yaml
  ++workload.storage.tiers.a.path=${VALIDATION}/t ++workload.storage.tiers.b.path=${VALIDATION}/t/)
dlbench_validation_test(tier_zero_bandwidth "storage.tiers.a.bandwidth_limit: must be a finite number > 0"
  run ${DATA}/workloads/tiny_checkpoint.yaml
  ++workload.storage.tiers.a.path=${VALIDATION}/t ++workload.storage.tiers.a.bandwidth_limit=0MiB/s)
# The burst buffer (were checkpoint/burst_buffer_store.cpp's).
set(BB_TIER ++workload.storage.tiers.nvme.path=${VALIDATION}/bb ++workload.checkpoint.burst_buffer.tier=nvme)
dlbench_validation_test(burst_buffer_holds_checkpoints
  "checkpoint.burst_buffer.tier = nvme \\(override .*\\) and checkpoint.checkpoint_folder = '${VALIDATION}/bb/ckpt' \\(override .*\\) overlap. the burst buffer must be a different folder"
  checkpoint ${DATA}/workloads/tiny_checkpoint.yaml ${BB_TIER}
  ++workload.checkpoint.checkpoint_folder=${VALIDATION}/bb/ckpt)
dlbench_validation_test(burst_buffer_unknown_tier
  "checkpoint.burst_buffer: tier 'ssd' is not a storage.tiers entry \\(defined: nvme\\)"
  checkpoint ${DATA}/workloads/tiny_checkpoint.yaml ++workload.storage.tiers.nvme.path=${VALIDATION}/bb
  ++workload.checkpoint.burst_buffer.tier=ssd)
dlbench_validation_test(burst_buffer_no_pending
  "checkpoint.burst_buffer.max_pending_checkpoints: must be >= 1, got 0 \\(override"
  checkpoint ${DATA}/workloads/tiny_checkpoint.yaml ${BB_TIER}
  ++workload.checkpoint.burst_buffer.max_pending_checkpoints=0)
dlbench_validation_test(burst_buffer_no_drain_threads
  "checkpoint.burst_buffer.drain_threads: must be >= 1, got 0 \\(override"
  checkpoint ${DATA}/workloads/tiny_checkpoint.yaml ${BB_TIER}
  ++workload.checkpoint.burst_buffer.drain_threads=0)
# Trainer options (were pipeline/trainer.cpp's).
dlbench_validation_test(train_no_epochs "train.epochs: must be >= 1, got 0 \\(override"
  run default ++workload.train.epochs=0)
dlbench_validation_test(train_no_eval_interval
  "evaluation.epochs_between_evals: must be >= 1, got 0 \\(override"
  run default ++workload.workflow.evaluation=True ++workload.evaluation.epochs_between_evals=0)
# Folders, symbolic links followed (workflow/safe_paths.cpp's canonical check and config's
# lexical one were two rules that disagreed on links).
file(CREATE_LINK / ${VALIDATION}/link_to_root SYMBOLIC)
file(MAKE_DIRECTORY ${VALIDATION}/real_data)
file(CREATE_LINK ${VALIDATION}/real_data ${VALIDATION}/link_to_data SYMBOLIC)
dlbench_validation_test(data_folder_links_to_root
  "dataset.data_folder: '${VALIDATION}/link_to_root' resolves to /, a system folder. give a dedicated folder"
  generate default ++workload.dataset.data_folder=${VALIDATION}/link_to_root)
dlbench_validation_test(checkpoints_through_a_link_into_the_data
  "dataset.data_folder = '${VALIDATION}/real_data' .* and checkpoint.checkpoint_folder = '${VALIDATION}/link_to_data/ckpt' .* overlap"
  run default ++workload.dataset.data_folder=${VALIDATION}/real_data
  ++workload.checkpoint.checkpoint_folder=${VALIDATION}/link_to_data/ckpt
  ++workload.workflow.checkpoint=True)
dlbench_cli_test(output_links_to_root 2
  --once "output folder '${VALIDATION}/link_to_root' resolves to /, a system folder"
  -- ${DLBENCH} generate default --output ${VALIDATION}/link_to_root)
# dataset.content.encoding: assembled exists for jpeg and png files of noise and for csv.
dlbench_validation_test(assembled_npz
  "dataset.content.encoding = assembled \\(override .*\\) with dataset.format = npz \\(.*\\): only jpeg, png and csv files can be assembled. use per_file"
  generate ${DATA}/workloads/train/tiny_train.yaml ++workload.dataset.content.encoding=assembled)
# Assembled csv is plain or gzip: csv's other compressions are refused as for per-file csv.
dlbench_validation_test(assembled_csv_bz2
  "dataset.compression = bz2 \\(override .*\\) with dataset.format = csv \\(override .*\\): csv files support only gzip compression"
  generate ${DATA}/workloads/train/tiny_train.yaml ++workload.dataset.format=csv
  ++workload.dataset.content.encoding=assembled ++workload.dataset.compression=bz2)
dlbench_validation_test(assembled_compressible
  "dataset.content.encoding = assembled \\(override .*\\) with dataset.content.kind = compressible \\(override .*\\): assembled images are noise"
  generate ${DATA}/workloads/train/tiny_train.yaml ++workload.dataset.format=jpeg
  ++workload.dataset.num_samples_per_file=1 ++workload.dataset.content.encoding=assembled
  ++workload.dataset.content.kind=compressible)
# A workload file that is not UTF-8 (here Latin-1) ran, and ended with an internal error (exit 1)
# when summary.json was written; now it is refused when loaded, naming the line and the byte.
dlbench_validation_test(workload_not_utf8
  "latin1_model_name.yaml:3: not valid YAML: byte 0xE9 at column 12 is not UTF-8"
  run ${DATA}/bad/latin1_model_name.yaml ++workload.dataset.data_folder=${VALIDATION}/latin1_data)
# A control character in a name or path that dlbench prints (dlio.log: one entry per line) or
# makes a folder of: refused when loaded, naming the key, the file and line.
dlbench_validation_test(model_name_newline
  "model.name: must be one line without control characters .*got a newline at character 5 \\(.*newline_model_name.yaml:4\\)"
  run ${DATA}/bad/newline_model_name.yaml ++workload.dataset.data_folder=${VALIDATION}/newline_data)
dlbench_validation_test(data_folder_tab
  "dataset.data_folder: must be one line without control characters .*got a tab at character"
  run ${DATA}/bad/newline_model_name.yaml ++workload.model.name=tiny
  "++workload.dataset.data_folder=${VALIDATION}/a	b")

# --output is held to output.folder's rules: `-o` the data folder was accepted (results and
# dataset in one folder) where output.folder: the data folder was refused.
dlbench_cli_test(output_is_the_data_folder 2
  --once "dataset.data_folder = '${VALIDATION}/out_is_data' \\(override .*\\) and output.folder = '${VALIDATION}/out_is_data' \\(--output\\) overlap"
  --no-file ${VALIDATION}/out_is_data
  -- ${DLBENCH} run default --output ${VALIDATION}/out_is_data
  ++workload.dataset.data_folder=${VALIDATION}/out_is_data)

# The dataset's bytes must fit the 64-bit counts: num_files_train=9223372036854775807
# passed the sample-count rule with one sample per file; generate wrote 632,000 files (4.9 GiB) in
# 30 s on its way to 3.8e22 bytes, and unet3d (a size stdev) ended in "internal error:
# vector::_M_default_append" (exit 1).
dlbench_validation_test(generate_dataset_beyond_64_bits
  "dataset.num_files_train = 9223372036854775807 \\(override .*\\) and dataset.num_files_eval = 8 \\(.*\\) files x .* make a dataset of 3.777893186295716e.22 bytes. at most 2\\^63 bytes \\(8 EiB\\) can be counted"
  generate default ++workload.dataset.num_files_train=9223372036854775807
  ++workload.dataset.data_folder=${VALIDATION}/generate_dataset_beyond_64_bits_data)
dlbench_validation_test(train_dataset_beyond_64_bits
  "dataset.num_files_train = 9223372036854775807 \\(override .*\\) and .* make a dataset of"
  train unet3d_h100 ++workload.dataset.num_files_train=9223372036854775807
  ++workload.dataset.data_folder=${VALIDATION}/train_dataset_beyond_64_bits_data)
# A key the workload does not set is named as the default in messages about several keys: a
# pytorch workload without reader.data_loader was told of a "reader.data_loader = tensorflow" it
# never wrote.
dlbench_validation_test(default_loader_named_as_default
  "framework = pytorch \\(.*tiny_train.yaml:[0-9]+\\) with reader.data_loader = tensorflow \\(the default\\): the data loader must belong to the framework"
  train ${DATA}/workloads/train/tiny_train.yaml ~workload.reader.data_loader)
# A workflow that enables no phase: refused before the output folder is made (it was made, with
# config.yaml and overrides.yaml, and the run refused after).
dlbench_validation_test(no_phase_enabled
  "the workload enables no phase \\(workflow.generate_data, workflow.train and workflow.checkpoint are all false\\)"
  run ${DATA}/workloads/train/tiny_train.yaml ++workload.workflow.train=False
  ++workload.workflow.generate_data=False)
# A URI on storage that stores local paths only: once made a local folder ./s3:/bucket/data in the
# working folder and generated into it; refused at load, before any folder is made.
dlbench_cli_test(validation_uri_on_local_storage 2
  --once "dataset.data_folder: 's3://bucket/data' is a s3:// URI, but storage.storage_type local_fs stores local paths only. give a local folder \\(override"
  --no-file ${SCRATCH}/s3: --no-file ${VALIDATION}/uri_on_local_storage
  -- ${MPIEXEC} 2 ${DLBENCH} generate default --output ${VALIDATION}/uri_on_local_storage
  ++workload.dataset.data_folder=s3://bucket/data)
set_tests_properties(cli.validation_uri_on_local_storage PROPERTIES LABELS "cli;mpi")
dlbench_validation_test(tier_uri_on_local_storage
  "storage.tiers.fast.path: 'gs://b/fast' is a gs:// URI, but storage.storage_type local_fs stores local paths only"
  run ${DATA}/workloads/tiny_checkpoint.yaml ++workload.storage.tiers.fast.path=gs://b/fast)
