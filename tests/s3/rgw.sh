#!/bin/bash
# A throwaway S3 server for the S3 tests: Ceph's radosgw on a one-node cluster (one mon, one mgr,
# one OSD on memstore, so nothing touches a disk), listening on 127.0.0.1 only, on free ports,
# with all state in one folder.
#
#   rgw.sh start DIR   starts it, creates a user and a bucket, writes DIR/env (AWS_ENDPOINT_URL,
#                      AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_REGION, DLBENCH_S3_BUCKET,
#                      and an HTTPS endpoint on a self-signed certificate:
#                      DLBENCH_S3_HTTPS_ENDPOINT, DLBENCH_S3_CA_BUNDLE);
#                      on any failure it stops what it started and exits non-zero, after printing
#                      the end of the failing daemon's log.
#   rgw.sh stop DIR    stops every daemon it started (TERM, then KILL after 10 s) and removes DIR.
#
# When the Ceph packages are missing (scripts/lib.sh installs them: ceph-mon ceph-osd ceph-mgr
# radosgw), start writes the reason to DIR/skipped instead of DIR/env and exits 0: the tests then
# skip, each saying why. The OSD keeps at most DLBENCH_RGW_MEMSTORE_BYTES of data (default 2 GiB,
# in memory; RGW frees deleted objects' data only hours later): once full, every write waits, so
# a benchmark that writes more sets it. Two settings matter: each daemon gets its own
# keyring with --keyring (the mon's has no key for the others), and the beast frontend needs
# tcp_nodelay=1, or every request on a kept-alive connection waits ~40 ms for a delayed ACK.
set -eu

usage() { echo "usage: rgw.sh start|stop DIR" >&2; exit 2; }
[ $# -eq 2 ] || usage
ACTION=$1
R=$2

stop() {
  local pid
  [ -f "$R/pids" ] || return 0
  while read -r pid; do kill -TERM "$pid" 2>/dev/null || true; done < "$R/pids"
  for _ in $(seq 1 100); do
    local alive=0
    while read -r pid; do kill -0 "$pid" 2>/dev/null && alive=1; done < "$R/pids"
    [ $alive -eq 0 ] && break
    sleep 0.1
  done
  while read -r pid; do kill -KILL "$pid" 2>/dev/null || true; done < "$R/pids"
  rm -f "$R/pids"
}

if [ "$ACTION" = stop ]; then
  [ -d "$R" ] || exit 0
  [ -f "$R/ceph.conf" ] || { echo "rgw.sh: $R is not a folder rgw.sh made; leaving it" >&2; exit 2; }
  stop
  rm -rf "$R"
  exit 0
fi
[ "$ACTION" = start ] || usage

if [ -e "$R" ] && [ -n "$(ls -A "$R" 2>/dev/null)" ] && [ ! -f "$R/ceph.conf" ] && [ ! -f "$R/skipped" ]; then
  echo "rgw.sh: $R holds files rgw.sh did not make; refusing to use it" >&2; exit 2
fi
[ -f "$R/pids" ] && stop
rm -rf "$R"
mkdir -p "$R"/{mon,osd,mgr,rgw,log,run}
for tool in ceph-mon ceph-mgr ceph-osd radosgw radosgw-admin ceph-authtool monmaptool ceph openssl; do
  if ! command -v "$tool" >/dev/null; then
    echo "no Ceph RGW to test against: $tool is missing (apt-get install ceph-mon ceph-mgr ceph-osd radosgw; scripts/lib.sh does)" | tee "$R/skipped" >&2
    touch "$R/ceph.conf"
    exit 0
  fi
done

failed() {
  echo "rgw.sh: start-up failed at line $1; the logs end:" >&2
  for log in "$R"/log/*.log; do [ -f "$log" ] && { echo "== $log" >&2; tail -5 "$log" >&2; }; done
  stop
  exit 1
}
trap 'failed $LINENO' ERR

# Free TCP ports on 127.0.0.1 (the kernel picks them; another process could take one in between,
# which then shows as a failed start).
free_port() { /usr/bin/python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
MON_PORT=$(free_port)
RGW_PORT=$(free_port)
TLS_PORT=$(free_port)
# HTTPS too, on a self-signed certificate for 127.0.0.1 (the CA bundle tests give it as theirs).
mkdir -p "$R/tls"
openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=127.0.0.1 \
  -addext subjectAltName=IP:127.0.0.1 -keyout "$R/tls/key.pem" -out "$R/tls/cert.pem" 2>/dev/null
FSID=$(cat /proc/sys/kernel/random/uuid)
cat > "$R/ceph.conf" <<CONF
[global]
fsid = $FSID
mon host = [v2:127.0.0.1:$MON_PORT]
mon initial members = a
public addr = 127.0.0.1
cluster addr = 127.0.0.1
ms bind ipv6 = false
auth cluster required = cephx
auth service required = cephx
auth client required = cephx
osd pool default size = 1
osd pool default min size = 1
osd pool default pg num = 8
osd pool default pgp num = 8
osd crush chooseleaf type = 0
mon allow pool size one = true
mon warn on pool no redundancy = false
mon allow pool delete = true
mon max pg per osd = 1000
osd objectstore = memstore
memstore device bytes = ${DLBENCH_RGW_MEMSTORE_BYTES:-2147483648}
osd max object name len = 460
osd max object namespace len = 64
run dir = $R/run
pid file = $R/run/\$name.pid
log file = $R/log/\$name.log
admin socket = $R/run/\$name.asok
keyring = $R/keyring
osd data = $R/osd/\$cluster-\$id
mon data = $R/mon/\$cluster-\$id
mgr data = $R/mgr/\$cluster-\$id
[client.rgw.a]
rgw frontends = beast endpoint=127.0.0.1:$RGW_PORT ssl_endpoint=127.0.0.1:$TLS_PORT ssl_certificate=$R/tls/cert.pem ssl_private_key=$R/tls/key.pem tcp_nodelay=1
rgw data = $R/rgw/\$cluster-\$id
CONF
export CEPH_CONF=$R/ceph.conf
CEPH="timeout 60 ceph --connect-timeout 30"

# Starts a daemon in the foreground of its own session, so it outlives this script and is
# stopped by its pid.
daemon() { setsid "$@" -f </dev/null >>"$R/log/stdio.log" 2>&1 & echo $! >> "$R/pids"; }

ceph-authtool --create-keyring "$R/keyring" --gen-key -n mon. --cap mon 'allow *' >/dev/null
ceph-authtool "$R/keyring" --gen-key -n client.admin --cap mon 'allow *' --cap osd 'allow *' \
  --cap mgr 'allow *' >/dev/null
monmaptool --create --addv a "[v2:127.0.0.1:$MON_PORT]" --fsid "$FSID" "$R/monmap" >/dev/null
ceph-mon --mkfs -i a --monmap "$R/monmap" --keyring "$R/keyring"
daemon ceph-mon -i a

mkdir -p "$R/mgr/ceph-a"
$CEPH auth get-or-create mgr.a mon 'allow profile mgr' osd 'allow *' > "$R/mgr/ceph-a/keyring"
daemon ceph-mgr -i a --keyring "$R/mgr/ceph-a/keyring"

OSD_UUID=$(cat /proc/sys/kernel/random/uuid)
$CEPH osd new "$OSD_UUID" >/dev/null
mkdir -p "$R/osd/ceph-0"
$CEPH auth get-or-create osd.0 mon 'allow profile osd' mgr 'allow profile osd' osd 'allow *' \
  > "$R/osd/ceph-0/keyring"
ceph-osd --mkfs -i 0 --osd-uuid "$OSD_UUID" --keyring "$R/osd/ceph-0/keyring" >>"$R/log/mkfs.log" 2>&1
daemon ceph-osd -i 0 --keyring "$R/osd/ceph-0/keyring"

mkdir -p "$R/rgw/ceph-rgw.a"
$CEPH auth get-or-create client.rgw.a mon 'allow rw' osd 'allow rwx' > "$R/rgw/ceph-rgw.a/keyring"
daemon radosgw -n client.rgw.a --keyring "$R/rgw/ceph-rgw.a/keyring"

ENDPOINT=http://127.0.0.1:$RGW_PORT
up=0
for _ in $(seq 1 240); do
  if curl -s -o /dev/null --max-time 2 "$ENDPOINT/"; then up=1; break; fi
  sleep 0.5
done
[ $up -eq 1 ] || { echo "rgw.sh: radosgw did not answer on $ENDPOINT within 120 s" >&2; false; }

ACCESS=DLB$(head -c 8 /dev/urandom | od -An -tx1 | tr -d ' \n' | tr a-f A-F)
SECRET=$(head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n')
timeout 60 radosgw-admin user create --uid dlbench --display-name dlbench \
  --access-key "$ACCESS" --secret-key "$SECRET" >/dev/null
BUCKET=dlbench-test
AWS_ACCESS_KEY_ID=$ACCESS AWS_SECRET_ACCESS_KEY=$SECRET timeout 60 /usr/bin/python3 - "$ENDPOINT" "$BUCKET" <<'PY'
import sys
import boto3
s3 = boto3.client("s3", endpoint_url=sys.argv[1], region_name="us-east-1")
s3.create_bucket(Bucket=sys.argv[2])
PY
cat > "$R/env" <<ENV
AWS_ENDPOINT_URL=$ENDPOINT
AWS_ACCESS_KEY_ID=$ACCESS
AWS_SECRET_ACCESS_KEY=$SECRET
AWS_REGION=us-east-1
DLBENCH_S3_BUCKET=$BUCKET
DLBENCH_S3_HTTPS_ENDPOINT=https://127.0.0.1:$TLS_PORT
DLBENCH_S3_CA_BUNDLE=$R/tls/cert.pem
ENV
trap - ERR
echo "rgw.sh: radosgw up on $ENDPOINT after $SECONDS s (state in $R)"
