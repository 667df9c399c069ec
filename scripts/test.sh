#!/usr/bin/env bash
# Every test CI runs: static checks, unit and machine tests, the server suite on PGlite and
# again on PostgreSQL, a production and a development build, then end-to-end in Chromium.
# The storage contract runs on local disk and on a real S3 server: a throwaway Ceph RADOS
# Gateway (scripts/ceph.sh). Installs Debian's chromium, postgresql and ceph when missing.
# Prints how long each step took, and "N passed, N failed" last.
#
# On 2 cores the steps overlap where one leaves a core idle: the checks (mostly one thread:
# ESLint, tsc) run beside the unit tests, and the server suite on PostgreSQL (one worker that
# mostly waits on the database) beside the end-to-end files that draw with WebGL.
set -uo pipefail
cd "$(dirname "$0")/.."

results=.tmp/test-results
rm -rf "$results" && mkdir -p "$results"
failed_steps=()
started=$SECONDS

# The machine's CPU time so far, busy and all, in clock ticks (/proc/stat's first line).
cpu_ticks() {
  local _ user nice system idle iowait irq softirq steal
  read -r _ user nice system idle iowait irq softirq steal _ </proc/stat
  local busy=$((user + nice + system + irq + softirq + steal))
  echo "$busy $((busy + idle + iowait))"
}
# "NAME took M m S s (at M m, cores N% busy)": the share of every core busy while the step ran
# (steps that overlap share it), to tell a step that waits from one that is short of CPU.
took() {
  local busy total
  read -r busy total < <(cpu_ticks)
  local share=$(((busy - $3) * 100 / (total - $4 > 0 ? total - $4 : 1)))
  echo "::: $1 took $(($2 / 60)) m $(($2 % 60)) s (at $(((SECONDS - started) / 60)) m, cores $share% busy)"
}

step() {
  local name=$1 from=$SECONDS ticks
  ticks=$(cpu_ticks)
  shift
  echo "::: $name"
  if ! "$@"; then failed_steps+=("$name"); fi
  # shellcheck disable=SC2086 # two numbers
  took "$name" $((SECONDS - from)) $ticks
}

# A step run in the background, its output kept in a log printed by `finish`.
declare -A background_pids background_starts
begin() {
  local name=$1
  shift
  background_starts[$name]=$SECONDS
  local ticks
  ticks=$(cpu_ticks)
  (
    "$@"
    rc=$?
    # shellcheck disable=SC2086 # two numbers
    took "$name" $((SECONDS - background_starts[$name])) $ticks
    exit $rc
  ) >"$results/${name//[^a-z]/-}.log" 2>&1 &
  background_pids[$name]=$!
}
finish() {
  local name=$1
  echo "::: $name"
  wait "${background_pids[$name]}" || failed_steps+=("$name")
  cat "$results/${name//[^a-z]/-}.log"
}

start_ticks=$(cpu_ticks)
bash scripts/system-deps.sh || { echo "could not install system packages"; exit 1; }

vitest_json() { npx vitest run --reporter=default --reporter=json --outputFile.json="$results/$1.json" "${@:2}"; }

# The S3 server the storage tests use (server/test-storage.ts), for both server runs.
# shellcheck source=scripts/ceph.sh
source scripts/ceph.sh
if ceph_start; then
  export TEST_S3_ENDPOINT=$S3_ENDPOINT TEST_S3_ACCESS_KEY_ID=$S3_ACCESS_KEY_ID
  export TEST_S3_SECRET_ACCESS_KEY=$S3_SECRET_ACCESS_KEY
  # Only the tests that ask for it use the bucket; every other server test keeps local files.
  unset S3_ENDPOINT S3_BUCKET S3_REGION S3_ACCESS_KEY_ID S3_SECRET_ACCESS_KEY
else
  failed_steps+=("start Ceph (S3)")
fi

# shellcheck source=scripts/pg.sh
source scripts/pg.sh
pg_ok=""
if pg_start; then pg_ok=1; else failed_steps+=("start PostgreSQL"); fi

begin "check (format, lint, types)" npm run --silent check
step "unit and server (PGlite)" vitest_json unit --project unit --project dom --project server --maxWorkers=2
finish "check (format, lint, types)"

step "build" npm run --silent build
# The inspector's end-to-end test needs a development build (dist-dev/, about 10 s).
step "development build" npm run --silent build:dev
# tests/e2e/two-instances.test.ts runs two servers on the PostgreSQL and Ceph started above.
TEST_DATABASE_URL=${PG_URL:-} step "end-to-end (Chromium)" vitest_json e2e --project e2e-quiet --project e2e
# The server suite on PostgreSQL (one worker that mostly waits on the database) runs beside the
# WebGL files (two at a time), and both end within seconds of each other.
if [ -n "$pg_ok" ]; then
  # Only the files that use a database: the others (the entry point's own PGlite, the readers,
  # validators and scripts) ran above, and would run the same here.
  no_database=(server/main.test.ts server/config.test.ts server/storage.test.ts
    server/model-validator.test.ts server/embed-preload.test.ts 'server/auth/*.test.ts'
    server/http/compressed-models.test.ts 'scripts/**' 'tests/fuzz/**')
  pg_suite() {
    TEST_DATABASE_URL=$PG_URL vitest_json server-pg --project server --maxWorkers=1 \
      "${no_database[@]/#/--exclude=}"
  }
  begin "server (PostgreSQL)" pg_suite
fi
step "end-to-end, WebGL (Chromium)" vitest_json e2e-webgl --project e2e-webgl
if [ -n "$pg_ok" ]; then
  finish "server (PostgreSQL)"
  pg_stop
fi
ceph_stop

# shellcheck disable=SC2086 # two numbers
took "all tests" $((SECONDS - started)) $start_ticks
node --import tsx scripts/summarize-tests.ts "$results" "${failed_steps[@]}"
