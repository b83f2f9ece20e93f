# Shared by scripts/*.sh: installing Debian packages and building dlbench. Source it; don't run it.

DLBENCH_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DLBENCH_BUILD_DIR="${DLBENCH_BUILD_DIR:-$DLBENCH_ROOT/build}"

# Everything dlbench needs to build and test, as Debian 12 packages.
DLBENCH_PACKAGES=(
  g++ cmake ninja-build pkg-config
  libopenmpi-dev openmpi-bin
  libhdf5-openmpi-dev
  libyaml-cpp-dev libcli11-dev nlohmann-json3-dev zlib1g-dev libdeflate-dev libjpeg62-turbo-dev libpng-dev
  libsnappy-dev libzstd-dev
  # the S3 backend (src/s3/) and the server its tests run against (tests/s3/rgw.sh: Ceph RGW)
  libcurl4-openssl-dev libssl-dev libexpat1-dev
  ceph-mon ceph-mgr ceph-osd radosgw python3-boto3 openssl
  libgtest-dev libbenchmark-dev
  python3 python3-numpy python3-h5py python3-scipy python3-pil python3-pandas python3-yaml
  clang-format clang-tidy chromium nodejs
  strace
  # libFuzzer for scripts/dev/fuzz.sh: clang 16, as clang 14 cannot capture structured bindings (C++20)
  clang-16 libclang-rt-16-dev
)

log() { printf 'dlbench: %s\n' "$*" >&2; }

# Installs the packages in "$@" that are not installed yet; silent when none is missing.
ensure_packages() {
  local missing=()
  local pkg
  for pkg in "$@"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || missing+=("$pkg")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  if [ "$(id -u)" -ne 0 ]; then
    log "missing Debian packages: ${missing[*]}"
    log "install them with: sudo apt-get install ${missing[*]}"
    exit 1
  fi
  log "installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# npm, which the Parquet interop test uses to install its independent reader (hyparquet) into the
# build tree: Debian's npm package, unless the installed nodejs brings its own npm.
ensure_npm() {
  command -v npm >/dev/null 2>&1 || ensure_packages npm
}

# Configures (first time) and builds dlbench in $DLBENCH_BUILD_DIR. Extra CMake -D options in "$@";
# DLBENCH_BUILD_TARGETS (space-separated) builds only those targets instead of all. A unity build
# (CMAKE_UNITY_BUILD: each library's .cpp files compiled as one file) unless "$@" says otherwise:
# it takes half the CPU of one compiler run per file, as every .cpp parses the same large headers
# (CLI11's alone is 8 s at -O2). The dev preset (CMakePresets.json) compiles each file alone.
build_dlbench() {
  local werror=OFF
  [ "${CI:-}" = "true" ] && werror=ON
  if [ ! -f "$DLBENCH_BUILD_DIR/build.ninja" ]; then
    log "configuring in $DLBENCH_BUILD_DIR"
    cmake -S "$DLBENCH_ROOT" -B "$DLBENCH_BUILD_DIR" -G Ninja -DCMAKE_UNITY_BUILD=ON \
      -DDLBENCH_WERROR=$werror "$@" >/dev/null
  elif [ $# -gt 0 ] || [ "$werror" = ON ]; then
    cmake "$DLBENCH_BUILD_DIR" -DDLBENCH_WERROR=$werror "$@" >/dev/null
  fi
  log "building"
  local build_log="$DLBENCH_BUILD_DIR/build.log"
  local targets=()
  [ -n "${DLBENCH_BUILD_TARGETS:-}" ] && read -ra targets <<<"--target $DLBENCH_BUILD_TARGETS"
  if ! cmake --build "$DLBENCH_BUILD_DIR" -j "$(nproc)" "${targets[@]}" >"$build_log" 2>&1; then
    grep -vE '^\[[0-9]+/[0-9]+\] ' "$build_log" | tail -n 60 >&2
    log "build failed (full log: $build_log)"
    exit 1
  fi
}

# The script's header comment (line 2 up to the `set -euo pipefail` line): its --help.
script_help() {
  local end
  end=$(grep -n '^set -euo' "$0" | head -1 | cut -d: -f1)
  sed -n "2,$((${end:-2} - 1))p" "$0"
}

# Parses a script's options, the one way every script here takes them. SPEC lists the options,
# one word each: `name` for --name VALUE, kept in the variable `name` (dashes become
# underscores); `name=var` keeps it in `var`; `name!` is a flag without a value that sets its
# variable to 1; a word `...` lets the script take other arguments, left in the array
# `positional` in their order. -h/--help prints the header comment (script_help) and exits 0;
# an unknown option, an option without its value or an argument the script does not take exits 2.
#   parse_options "reps dlbench dir quick! writers=writers_list ..." "$@"
parse_options() {
  local spec="$1" word name var takes_positional=0 matched
  shift
  positional=()
  for word in $spec; do [ "$word" = ... ] && takes_positional=1; done
  while [ $# -gt 0 ]; do
    case "$1" in
      -h | --help) script_help; exit 0 ;;
      --?*)
        matched=0
        for word in $spec; do
          name="${word%%=*}"
          var="${name%!}"
          var="${var//-/_}"
          [ "$word" != "$name" ] && var="${word#*=}"
          if [ "$1" = "--${name%!}" ]; then
            matched=1
            if [ "${name%!}" != "$name" ]; then
              printf -v "$var" 1
              shift
            else
              [ $# -ge 2 ] || { echo "option $1 needs a value" >&2; exit 2; }
              printf -v "$var" '%s' "$2"
              shift 2
            fi
            break
          fi
        done
        [ "$matched" = 1 ] || { echo "unknown option $1" >&2; exit 2; }
        ;;
      *)
        [ "$takes_positional" = 1 ] || { echo "unknown argument $1" >&2; exit 2; }
        positional+=("$1")
        shift
        ;;
    esac
  done
}

# Stage timings (scripts/test.sh, test-sanitizers.sh): `stage_start`, then `stage_end WHAT` logs
# the wall seconds since and the CPU seconds (user + system) of the commands this shell waited for
# meanwhile — on a machine shared with other work, the CPU seconds are the figure to compare.
stage_start() {
  _stage_wall=$SECONDS
  _children_cpu_seconds
  _stage_cpu=$_cpu_seconds
}
stage_end() {
  _children_cpu_seconds
  log "$1: $((SECONDS - _stage_wall)) s wall, $((_cpu_seconds - _stage_cpu)) CPU s" \
    "(load $(cut -d' ' -f1-3 /proc/loadavg))"
}
# Sets _cpu_seconds to the `times` builtin's second line (the user and system time of the children
# this shell waited for) in seconds. `times` must run in this shell, not in a $(...) subshell
# (which has no children), so it writes to a file.
_children_cpu_seconds() {
  local file
  file=$(mktemp)
  times >"$file"
  _cpu_seconds=$(awk 'NR == 2 { t = 0; for (i = 1; i <= 2; i++) { split($i, a, "m");
    sub("s", "", a[2]); t += a[1] * 60 + a[2] } printf "%.0f\n", t }' "$file")
  rm -f "$file"
}

# Where Open MPI's mpirun puts its session directory: tmpfs when there is one. Every rank's
# MPI_Finalize waits until mpirun has removed that directory, and on a /tmp of a disk busy writing
# each rmdir waits for the file system's journal (docs/cluster.md, "The end of a run";
# results/end-of-run.md).
mpi_session_base() {
  if [ -d /dev/shm ] && [ -w /dev/shm ]; then echo /dev/shm; else echo "${TMPDIR:-/tmp}"; fi
}

# mpirun flags that let the scripts run as root (CI) and on fewer cores than ranks, with the
# session directory of mpi_session_base. Open MPI binds each rank to one core by default, which
# would make a rank's reader threads share it.
mpirun_flags() {
  local flags=(--oversubscribe --bind-to none --mca orte_tmpdir_base "$(mpi_session_base)")
  [ "$(id -u)" -eq 0 ] && flags+=(--allow-run-as-root)
  printf '%s\n' "${flags[@]}"
}

# The same for every mpirun the tests start (ctest, the Python harnesses), through Open MPI's
# environment variables: root allowed (CI runs as root), more ranks than cores.
export_test_mpi_environment() {
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  export OMPI_MCA_rmaps_base_oversubscribe=1
  OMPI_MCA_orte_tmpdir_base="$(mpi_session_base)"
  export OMPI_MCA_orte_tmpdir_base
}

# The training-read workload of the read benchmarks (bench-read.sh, bench-read-limit.sh): NAME,
# N files of one sample of S bytes of FORMAT in FOLDER, batch B, E epochs, computation 0, one
# reader thread, file and sample shuffle SHUFFLE (seed or off).
read_bench_workload() {  # name folder format files bytes batch epochs shuffle
  cat <<EOF
model: {name: $1}
framework: pytorch
workflow: {generate_data: false, train: true}
dataset: {data_folder: $2, format: $3, num_files_train: $4, num_files_eval: 0,
          num_samples_per_file: 1, record_length_bytes: $5}
reader: {data_loader: pytorch, batch_size: $6, read_threads: 1, prefetch_size: 4,
         file_shuffle: $8, sample_shuffle: $8}
train: {epochs: $7, computation_time: 0}
EOF
}
