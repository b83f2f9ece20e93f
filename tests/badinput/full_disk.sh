#!/bin/sh
# full_disk.sh FOLDER COMMAND...: runs COMMAND with a 64 KiB tmpfs mounted on FOLDER, so that its
# writes there fail with ENOSPC (a full disk). Run it under `unshare -m --propagation private`:
# the mount lives in that private mount namespace and disappears with it.
set -e
folder="$1"; shift
mount -t tmpfs -o size=64k dlbench-full-disk "$folder"
set +e
"$@"
