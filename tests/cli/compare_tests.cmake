# CLI tests of `dlbench compare` and `dlbench run --repeat` (included from tests/CMakeLists.txt
# after tests/cli, whose dlbench_cli_test function they use). The summary.json fixtures in
# tests/data/compare/ are written by make_fixtures.py there.
set(SCRATCH ${CMAKE_CURRENT_BINARY_DIR}/cli/scratch)
set(DLBENCH $<TARGET_FILE:dlbench>)
set(MPIEXEC ${MPIEXEC_EXECUTABLE} --allow-run-as-root --oversubscribe ${MPIEXEC_NUMPROC_FLAG})
set(RUNS ${PROJECT_SOURCE_DIR}/tests/data/compare)
string(JOIN " " MPIEXEC_LINE ${MPIEXEC})

dlbench_cli_test(compare_same_noise 0 --match "train samples/s +higher .* same +U test"
  --match "Result: no regression in 6 metrics" -- ${DLBENCH} compare ${RUNS}/base ${RUNS}/same)
dlbench_cli_test(compare_identical 0 --match "Result: no regression"
  -- ${DLBENCH} compare ${RUNS}/base ${RUNS}/base)
dlbench_cli_test(compare_20_percent_drop 4 --match "train samples/s +higher .* -20.0% .* REGRESSION"
  --match "Result: REGRESSION in 2 of 6" -- ${DLBENCH} compare ${RUNS}/base ${RUNS}/slow)
dlbench_cli_test(compare_longer_stall 4 --match "checkpoint stall s +lower .* \\+30.0% .* REGRESSION"
  --match "time to durable s .* REGRESSION" --match "train samples/s .* same"
  -- ${DLBENCH} compare ${RUNS}/base ${RUNS}/stall)
dlbench_cli_test(compare_shorter_stall_is_better 0 --match "checkpoint stall s .* improved"
  -- ${DLBENCH} compare ${RUNS}/stall ${RUNS}/base)
dlbench_cli_test(compare_glob 4 --match "Current: +5 run"
  -- ${DLBENCH} compare ${RUNS}/base "${RUNS}/slow/run-*")
dlbench_cli_test(compare_single_run 4 --match "1 run on a side"
  -- ${DLBENCH} compare ${RUNS}/base/run-1 ${RUNS}/slow/run-1/summary.json)
dlbench_cli_test(compare_tolerance 0 -- ${DLBENCH} compare ${RUNS}/base ${RUNS}/slow --tolerance 25%)
dlbench_cli_test(compare_tolerance_file 4 --match "train samples/s .* same .* tolerance 25%"
  --match "checkpoint stall s .* REGRESSION"
  -- ${DLBENCH} compare ${RUNS}/base ${RUNS}/stall --tolerances ${RUNS}/tolerances.yaml)
dlbench_cli_test(compare_named_metric 0 --match "metric.train_batch_wait_p99_seconds +lower"
  -- ${DLBENCH} compare ${RUNS}/base ${RUNS}/same --metric metric.train_batch_wait_p99_seconds)
dlbench_cli_test(compare_markdown 4 --match "^\\| metric \\| better"
  --match "^\\| train samples/s \\| higher .* REGRESSION" --match "^\\*\\*Result: REGRESSION"
  -- ${DLBENCH} compare ${RUNS}/base ${RUNS}/slow --format markdown)
dlbench_cli_test(compare_json 4 --match "\"p_value\": 0.00793650793650"
  --match "\"ratio_of_medians\": 0.8" --match "\"regression\": true"
  -- ${DLBENCH} compare ${RUNS}/base ${RUNS}/slow --format json)
# A phase only one side ran (the single run also generated its dataset, the baseline's runs did
# not: README's CI flow) is left out with a note naming it, in both directions; the phases in
# common decide (exit 4 on their regression, 0 otherwise). Before, exit 2 "missing from".
dlbench_cli_test(compare_phase_on_one_side 0
  --once "^dlbench: note: phase generation ran only in the current run\\(s\\) \\(e.g. .*generated/summary.json\\): generation MiB/s not compared"
  --match "Result: no regression in 6 metrics .*measured on one side only, not compared: generation MiB/s in the current runs"
  -- ${DLBENCH} compare ${RUNS}/base ${RUNS}/generated)
dlbench_cli_test(compare_phase_on_one_side_baseline 4 --once "phase generation ran only in the baseline"
  --match "train samples/s .* REGRESSION" -- ${DLBENCH} compare ${RUNS}/generated ${RUNS}/slow/run-1)
dlbench_cli_test(compare_phase_on_one_side_json 0 --match "\"side\": \"current\""
  --match "\"phase\": \"generation\"" -- ${DLBENCH} compare ${RUNS}/base ${RUNS}/generated --format json)
# Nothing in common: exit 2 naming what each side has, never a pass on an empty table.
dlbench_cli_test(compare_no_phase_in_common 2
  --once "no metric to compare: .*base and .*generation_only ran no phase in common \\(baseline ran train, checkpoint \\(.*base/run-1/summary.json\\). current ran generation \\(.*generation_only/summary.json\\)\\)$"
  -- ${DLBENCH} compare ${RUNS}/base ${RUNS}/generation_only)
# A short run (one block of 2 steps an epoch, as CI jobs make them): DLIO's samples/s and AU are
# 0 unmeasured, so they are left out with a note and the exact samples/s decides: half of it is a
# regression (exit 4). Before, 0 against 0 was "same" and the job passed (exit 0).
dlbench_cli_test(compare_short_run_exact_halved 4
  --once "^dlbench: note: train samples/s not compared: DLIO's rate is 0 for blocks of at most 2 steps"
  --once "^dlbench: note: train AU % not compared: no step was measured"
  --match "train samples/s exact +higher +100 +50 +-50.0% .* REGRESSION"
  --match "Result: REGRESSION in 1 of 1 metric .*not measured by the runs, not compared: train samples/s. train AU %"
  -- ${DLBENCH} compare ${RUNS}/short ${RUNS}/short_slow)
dlbench_cli_test(compare_short_run_json 0 --match "\"reason\": \"no step was measured"
  --match "\"path\": \"metric.train_throughput_mean_samples_per_second_exact\""
  -- ${DLBENCH} compare ${RUNS}/short ${RUNS}/short --format json)
# Short runs without the exact rate: no headline metric remains, exit 2 naming the reasons.
dlbench_cli_test(compare_short_run_nothing_measured 2
  --once "no metric to compare: the runs did not measure their headline metrics \\(train samples/s: DLIO's rate is 0 .*short_old/summary.json\\)"
  -- ${DLBENCH} compare ${RUNS}/short_old ${RUNS}/short_old)
# A metric asked by name must be on both sides.
dlbench_cli_test(compare_named_metric_one_side 2 --once "generation.total.MiB_per_second is missing from .*base/run-1/summary.json .*must be on both sides"
  -- ${DLBENCH} compare ${RUNS}/base ${RUNS}/generated --metric generation.total.MiB_per_second)

# Unreadable input: exit 2, one clear message.
dlbench_cli_test(compare_missing_metric 2
  --once "checkpoint_stall_mean_seconds is missing from .*missing/run-1/summary.json"
  -- ${DLBENCH} compare ${RUNS}/base ${RUNS}/missing)
dlbench_cli_test(compare_named_metric_absent 2 --once "metric.no_such_metric is in none"
  -- ${DLBENCH} compare ${RUNS}/base ${RUNS}/same --metric metric.no_such_metric)
dlbench_cli_test(compare_malformed 2 --once "malformed/summary.json is not valid JSON"
  -- ${DLBENCH} compare ${RUNS}/base ${RUNS}/malformed)
dlbench_cli_test(compare_no_such_folder 2 --once "does not exist"
  -- ${DLBENCH} compare ${RUNS}/base ${RUNS}/no_such_folder)
dlbench_cli_test(compare_other_workload 2 --once "ran different workloads .*--force"
  --match "workload.name: \"ci_fixture\" vs \"another_model\"" -- ${DLBENCH} compare ${RUNS}/base ${RUNS}/other)
dlbench_cli_test(compare_other_workload_forced 0
  -- ${DLBENCH} compare ${RUNS}/base ${RUNS}/other --force)
# Runs of one workload with another accelerator's compute time (unet3d_a100 against unet3d_h100:
# same model name and dataset) are different workloads: exit 2 naming the time. Before, compare
# read the slower emulated accelerator as a storage regression (exit 4).
set(dir ${SCRATCH}/compare_other_compute)
set(tiny_run "$<TARGET_FILE:dlbench> run ${PROJECT_SOURCE_DIR}/tests/data/workloads/train/tiny_train.yaml -q ++workload.dataset.data_folder=${dir}/data ++workload.train.epochs=1")
dlbench_cli_test(compare_other_compute_time 2 --once "ran different workloads .*--force"
  --match "^  workload.computation_time: 0.001 vs 0.02$" -- /bin/sh -c
  "rm -rf ${dir} && ${tiny_run} --output ${dir}/a100 && ${tiny_run} --output ${dir}/h100 ++workload.train.computation_time=0.02 && $<TARGET_FILE:dlbench> compare ${dir}/a100 ${dir}/h100")
# Generation alone writes summary.json's header (DLIO's num_accelerators, num_hosts, start, ...):
# MLPerf's tools read it, and compare refuses 1 rank against 2. Before, the summary had only
# "generation" and compare called the 2-rank run "+190.6 % improved" (exit 0). config.yaml and
# summary.json record the phase run (generate_data only), not the workload's train: true.
set(dir ${SCRATCH}/compare_generation_ranks)
set(tiny_generate "$<TARGET_FILE:dlbench> generate ${PROJECT_SOURCE_DIR}/tests/data/workloads/train/tiny_train.yaml -q")
set(check_mlperf "${DLBENCH_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/check_mlperf_fields.py")
dlbench_cli_test(compare_generation_rank_counts 2 --match "check_mlperf_fields: OK"
  --once "ran different workloads .*--force" --match "^  num_accelerators: 1 vs 2$" -- /bin/sh -c
  "rm -rf ${dir} && ${tiny_generate} --output ${dir}/one ++workload.dataset.data_folder=${dir}/data1 && ${MPIEXEC_LINE} 2 ${tiny_generate} --output ${dir}/two ++workload.dataset.data_folder=${dir}/data2 && ${check_mlperf} ${dir}/one 1 generate && ${check_mlperf} ${dir}/two 2 generate && $<TARGET_FILE:dlbench> compare ${dir}/one ${dir}/two")
set_tests_properties(cli.compare_generation_rank_counts PROPERTIES LABELS "cli;mpi")
# `dlbench train` of a workload that also generates records generate_data: false (mlpstorage
# called such a folder a datagen run); `dlbench run` records the workflow it ran.
set(dir ${SCRATCH}/recorded_phases)
dlbench_cli_test(recorded_phases 0 --match "check_mlperf_fields: OK" -- /bin/sh -c
  "rm -rf ${dir} && ${tiny_generate} --output ${dir}/gen ++workload.dataset.data_folder=${dir}/data && $<TARGET_FILE:dlbench> train ${PROJECT_SOURCE_DIR}/tests/data/workloads/train/tiny_train.yaml -q --output ${dir}/train ++workload.dataset.data_folder=${dir}/data && $<TARGET_FILE:dlbench> run ${PROJECT_SOURCE_DIR}/tests/data/workloads/train/tiny_train.yaml -q --output ${dir}/run ++workload.dataset.data_folder=${dir}/data2 && ${check_mlperf} ${dir}/train 1 train && ${check_mlperf} ${dir}/run 1 generate,train")
dlbench_cli_test(compare_bad_tolerance 2 --once "tolerance 'lots'"
  -- ${DLBENCH} compare ${RUNS}/base ${RUNS}/same --tolerance lots)
dlbench_cli_test(compare_bad_format 2 -- ${DLBENCH} compare ${RUNS}/base ${RUNS}/same --format html)
dlbench_cli_test(compare_missing_argument 2 --match "current" -- ${DLBENCH} compare ${RUNS}/base)

# --repeat 3: three run folders, the dataset generated once, seeds 123..125, an aggregate whose
# medians are the runs' medians (check_aggregate.py), and the set compared with itself passes.
set(dir ${SCRATCH}/repeat)
set(repeat_run "$<TARGET_FILE:dlbench> run ${PROJECT_SOURCE_DIR}/tests/data/workloads/train/tiny_train.yaml --output ${dir}/out --repeat 3 -q ++workload.dataset.data_folder=${dir}/data")
set(check_aggregate "${DLBENCH_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/check_aggregate.py ${dir}/out 3 123")
dlbench_cli_test(run_repeat 0 --match "check_aggregate: OK" --match "Result: no regression"
  -- /bin/sh -c "rm -rf ${dir} && ${repeat_run} && ${check_aggregate} && $<TARGET_FILE:dlbench> compare ${dir}/out ${dir}/out")
# --repeat of runs that measured neither DLIO's rate (blocks of 2 steps) nor AU (the exclusions
# cover every step): the aggregate table and the HTML report show n/a with the reason, not a
# median of 0 (hardening3), and aggregate.json lists them under "unmeasured".
set(dir ${SCRATCH}/repeat_unmeasured)
dlbench_cli_test(run_repeat_unmeasured 0
  --once "^  train samples/s +n/a +.run-1/summary.json: DLIO's rate is 0 for blocks of at most 2 steps"
  --once "^  train AU % +n/a +.run-1/summary.json: no step was measured in an epoch"
  --no-match "^  train (samples/s|AU %) +0 " --match "check_aggregate: OK"
  --match "<li>train AU %: n/a where no step was measured"
  -- /bin/sh -c "rm -rf ${dir} && $<TARGET_FILE:dlbench> run ${PROJECT_SOURCE_DIR}/tests/data/workloads/train/tiny_train.yaml --output ${dir}/out --repeat 2 ++workload.dataset.data_folder=${dir}/data ++workload.workflow.evaluation=False ++workload.reader.batch_size=8 ++workload.output.metric.exclude_start_steps=2 && ${DLBENCH_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/check_aggregate.py ${dir}/out 2 123 && grep -q 'reason.: .no step was measured in an epoch' ${dir}/out/aggregate.json && $<TARGET_FILE:dlbench> report ${dir}/out -o ${dir}/report.html && grep -o '<li>[^<]*' ${dir}/report.html")
# README's CI flow with real runs: a --repeat baseline (generation once, outside its runs) against
# one run that generates its own dataset.
set(dir ${SCRATCH}/repeat_vs_single)
dlbench_cli_test(compare_repeat_set_with_generating_run 0
  --once "note: phase generation ran only in the current run" --match "Result: no regression" -- /bin/sh -c
  "rm -rf ${dir} && $<TARGET_FILE:dlbench> run ${PROJECT_SOURCE_DIR}/tests/data/workloads/train/tiny_train.yaml --output ${dir}/base --repeat 2 -q ++workload.dataset.data_folder=${dir}/data && $<TARGET_FILE:dlbench> run ${PROJECT_SOURCE_DIR}/tests/data/workloads/train/tiny_train.yaml --output ${dir}/current -q ++workload.dataset.data_folder=${dir}/data2 && $<TARGET_FILE:dlbench> compare ${dir}/base ${dir}/current --tolerance 99%")
set(dir ${SCRATCH}/repeat_mpi)
dlbench_cli_test(run_repeat_mpi_fixed_seed 0 --match "check_aggregate: OK" -- /bin/sh -c
  "rm -rf ${dir} && ${MPIEXEC_LINE} 2 $<TARGET_FILE:dlbench> run ${PROJECT_SOURCE_DIR}/tests/data/workloads/train/tiny_train.yaml --output ${dir}/out --repeat 2 --fixed-seed -q ++workload.dataset.data_folder=${dir}/data && ${DLBENCH_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/check_aggregate.py ${dir}/out 2 fixed")
set_tests_properties(cli.run_repeat_mpi_fixed_seed PROPERTIES LABELS "cli;mpi")

# docs/ci.md's ready-to-paste jobs: valid YAML and bash, dlbench commands and options that exist.
dlbench_cli_test(ci_snippets 0 --match "check_ci_snippets: OK" -- ${DLBENCH_PYTHON}
  ${CMAKE_CURRENT_LIST_DIR}/check_ci_snippets.py ${PROJECT_SOURCE_DIR}/docs/ci.md ${DLBENCH})

# The CI presets stay valid workloads (docs/ci.md).
foreach(preset ci_train_small ci_train_large ci_checkpoint ci_generate)
  dlbench_cli_test(ci_preset_${preset} 0 --match "^  name: ${preset}$"
    -- ${DLBENCH} config show ${PROJECT_SOURCE_DIR}/configs/ci/${preset}.yaml)
endforeach()

# `dlbench report`: a traced 2-rank training run and a checkpoint-only run (no trace) in one
# self-contained HTML file, rendered in headless Chromium by check_report.py (no console message,
# every chart drawn; the screenshot stays in the scratch folder); the I/O charts hold the runs'
# POSIX_SIZE_* counters and the trace summary's bandwidth per second, and the untraced run says
# it has no trace.
set(dir ${SCRATCH}/report)
set(report_runs "${MPIEXEC_LINE} 2 $<TARGET_FILE:dlbench> run ${PROJECT_SOURCE_DIR}/tests/data/workloads/train/tiny_train.yaml --trace --output ${dir}/train -q ++workload.dataset.data_folder=${dir}/data && $<TARGET_FILE:dlbench> checkpoint ${PROJECT_SOURCE_DIR}/tests/data/workloads/tiny_checkpoint.yaml --output ${dir}/ckpt -q ++workload.checkpoint.checkpoint_folder=${dir}/checkpoints && $<TARGET_FILE:dlbench> trace summary ${dir}/train --json > ${dir}/trace.json")
dlbench_cli_test(report 0 --match "report of 2 run\\(s\\) written" --match "check_report: OK"
  -- /bin/sh -c "rm -rf ${dir} && ${report_runs} && $<TARGET_FILE:dlbench> report ${dir}/train ${dir}/ckpt -o ${dir}/report.html && ${DLBENCH_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/check_report.py ${dir}/report.html 11 ${dir}/report.png --io ${dir}/train ${dir}/trace.json --io ${dir}/ckpt -")
dlbench_cli_test(report_bad_trace 3 --once "trace-0-of-1.pfw line 1: no opening" -- /bin/sh -c
  "rm -rf ${dir}_bad_trace && mkdir -p ${dir}_bad_trace && cp ${RUNS}/base/run-1/summary.json ${dir}_bad_trace/ && echo garbage > ${dir}_bad_trace/trace-0-of-1.pfw && $<TARGET_FILE:dlbench> report ${dir}_bad_trace -o ${dir}_bad_trace/r.html")
set_tests_properties(cli.report PROPERTIES LABELS "cli;mpi")
dlbench_cli_test(report_missing_run 2 --once "does not exist"
  -- ${DLBENCH} report ${SCRATCH}/no_such_run -o ${SCRATCH}/never.html)
set(dir ${SCRATCH}/report_bad_output)
dlbench_cli_test(report_malformed_rank_output 2 --once "0_output.json is not valid JSON" -- /bin/sh -c
  "rm -rf ${dir} && mkdir -p ${dir} && cp ${RUNS}/base/run-1/summary.json ${dir}/ && echo '{\"1\":' > ${dir}/0_output.json && $<TARGET_FILE:dlbench> report ${dir} -o ${dir}/r.html")

# A generation-only workload with --repeat generates into fresh <data_folder>/run-<i> folders,
# and refuses (exit 2, once) when they exist: generation would keep the files and write nothing.
set(dir ${SCRATCH}/repeat_generate)
set(generate_twice "$<TARGET_FILE:dlbench> generate ${PROJECT_SOURCE_DIR}/tests/data/workloads/generate/tiny_generate.yaml --repeat 2 -q ++workload.dataset.data_folder=${dir}/data")
dlbench_cli_test(run_repeat_generation 2 --match "generation.total.MiB_per_second"
  --once "run-1 exists: a repeated generation writes fresh folders" -- /bin/sh -c
  "rm -rf ${dir} && ${generate_twice} --output ${dir}/first && test -d ${dir}/data/run-2/train && grep -o generation.total.MiB_per_second ${dir}/first/aggregate.json && ${generate_twice} --output ${dir}/second")
# Two sets: the report shows compare's table too, and still renders cleanly.
dlbench_cli_test(report_two_sets 0 --match "check_report: OK" -- /bin/sh -c
  "$<TARGET_FILE:dlbench> report ${RUNS}/base ${RUNS}/slow -o ${SCRATCH}/report_two_sets.html && grep -q 'dlbench compare</h2>' ${SCRATCH}/report_two_sets.html && grep -q 'train samples/s .*REGRESSION' ${SCRATCH}/report_two_sets.html && ${DLBENCH_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/check_report.py ${SCRATCH}/report_two_sets.html 10 ${SCRATCH}/report_two_sets.png")
