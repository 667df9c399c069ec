#!/usr/bin/env bash
# ceph_start / ceph_stop: a throwaway one-node Ceph cluster with the RADOS Gateway on loopback,
# a real S3 server for the storage tests (Debian's ceph-mon, ceph-osd and radosgw, installed
# when missing; data in memory, about 110 MB and 12 s to start). Sets and exports S3_ENDPOINT,
# S3_BUCKET (created empty), S3_REGION, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY.
CEPH_ROOT=""

ceph_free_port() {
  node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"
}

ceph_install() {
  command -v radosgw >/dev/null 2>&1 && command -v ceph-osd >/dev/null 2>&1 &&
    command -v ceph-mon >/dev/null 2>&1 && return 0
  local sudo=()
  [ "$(id -u)" -eq 0 ] || sudo=(sudo)
  echo "installing: ceph-mon ceph-osd radosgw"
  "${sudo[@]}" apt-get update -qq &&
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends \
      ceph-mon ceph-osd radosgw >/dev/null
}

# The monitor forks before it has formed its quorum: a command sent too soon is refused ("EPERM:
# problem getting command descriptions from mon"), which on a busy machine happened at start.
ceph_until_mon_answers() {
  local i
  for i in $(seq 1 60); do
    ceph -c "$1" --connect-timeout 5 quorum_status >/dev/null 2>&1 && return 0
    sleep 0.5
  done
  echo "the Ceph monitor did not answer within 30 s"
  return 1
}

ceph_start() {
  ceph_install || { echo "could not install Ceph"; return 1; }
  local dir mon_port rgw_port fsid uuid id conf key secret i
  dir=$(mktemp -d /tmp/avatar-studio-ceph.XXXXXX)
  CEPH_ROOT=$dir
  mkdir -p "$dir"/{mon,osd,run,log,rgw}
  mon_port=$(ceph_free_port)
  rgw_port=$(ceph_free_port)
  fsid=$(cat /proc/sys/kernel/random/uuid)
  conf="$dir/ceph.conf"
  cat >"$conf" <<CONF
[global]
fsid = $fsid
mon host = v1:127.0.0.1:$mon_port
public addr = 127.0.0.1
auth cluster required = none
auth service required = none
auth client required = none
osd pool default size = 1
osd pool default min size = 1
osd pool default pg num = 8
osd pool default pgp num = 8
mon allow pool size one = true
mon warn on pool no redundancy = false
osd crush chooseleaf type = 0
# An OSD starting sends its device class and crush place to the monitor at once, sometimes
# before it has the monitor's map: the command carries a zero fsid and the monitor refuses it
# ('wrong fsid'), which ends the OSD (1 start in 3 or so). The CLI places it instead (below).
osd class update on start = false
osd crush update on start = false
osd objectstore = memstore
memstore device bytes = 2147483648
run dir = $dir/run
admin socket = $dir/run/\$name.asok
log file = $dir/log/\$name.log
pid file = $dir/run/\$name.pid
[mon.a]
mon data = $dir/mon
[osd.0]
osd data = $dir/osd
[client.rgw.a]
rgw frontends = beast endpoint=127.0.0.1:$rgw_port
rgw data = $dir/rgw
CONF
  {
    monmaptool --create --addv a "[v1:127.0.0.1:$mon_port]" --fsid "$fsid" "$dir/monmap" &&
      ceph-mon -c "$conf" --mkfs -i a --monmap "$dir/monmap" &&
      ceph-mon -c "$conf" -i a &&
      ceph_until_mon_answers "$conf" &&
      uuid=$(cat /proc/sys/kernel/random/uuid) &&
      id=$(ceph -c "$conf" osd new "$uuid") &&
      ceph -c "$conf" osd crush add "osd.$id" 1.0 root=default &&
      ceph-osd -c "$conf" -i "$id" --mkfs --osd-uuid "$uuid" &&
      ceph-osd -c "$conf" -i "$id" &&
      radosgw -c "$conf" -n client.rgw.a
  } >"$dir/log/start.log" 2>&1 || {
    cat "$dir/log/start.log"
    ceph_stop
    return 1
  }
  for i in $(seq 1 60); do
    curl -fs "http://127.0.0.1:$rgw_port" >/dev/null 2>&1 && break
    sleep 1
  done
  key="test-$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')"
  secret=$(od -An -N24 -tx1 /dev/urandom | tr -d ' \n')
  radosgw-admin -c "$conf" user create --uid=avatar-studio --display-name=avatar-studio \
    --access-key="$key" --secret="$secret" >/dev/null 2>>"$dir/log/start.log" || {
    echo "the RADOS Gateway did not start:"
    tail -n 20 "$dir/log/start.log" "$dir"/log/client.rgw.a.log 2>/dev/null
    ceph_stop
    return 1
  }
  export S3_ENDPOINT="http://127.0.0.1:$rgw_port" S3_BUCKET=avatar-studio-test
  export S3_REGION=us-east-1 S3_ACCESS_KEY_ID=$key S3_SECRET_ACCESS_KEY=$secret
  node --input-type=module -e "
    import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
    const env = process.env;
    const client = new S3Client({ endpoint: env.S3_ENDPOINT, region: env.S3_REGION, forcePathStyle: true,
      credentials: { accessKeyId: env.S3_ACCESS_KEY_ID, secretAccessKey: env.S3_SECRET_ACCESS_KEY } });
    await client.send(new CreateBucketCommand({ Bucket: env.S3_BUCKET }));" || {
    echo "could not create the bucket"
    ceph_stop
    return 1
  }
  echo "Ceph RGW at $S3_ENDPOINT, bucket $S3_BUCKET (after ${i}s)"
}

ceph_stop() {
  [ -n "$CEPH_ROOT" ] || return 0
  local pid_file pids=()
  for pid_file in "$CEPH_ROOT"/run/*.pid; do
    [ -f "$pid_file" ] && pids+=("$(cat "$pid_file")")
  done
  [ ${#pids[@]} -eq 0 ] || kill "${pids[@]}" 2>/dev/null
  # Wait a little for them to exit, so the folder can be removed.
  for _ in $(seq 1 20); do
    kill -0 "${pids[@]}" 2>/dev/null || break
    sleep 0.25
  done
  rm -rf "$CEPH_ROOT"
  CEPH_ROOT=""
  unset S3_ENDPOINT S3_BUCKET S3_REGION S3_ACCESS_KEY_ID S3_SECRET_ACCESS_KEY
}
