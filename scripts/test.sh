#!/usr/bin/env bash
# Every test CI runs: static checks, unit and machine tests, the server suite on PostgreSQL and
# its database files on PGlite, a production and a development build, then end-to-end in
# Chromium.
# The storage contract runs on local disk and on a real S3 server: a throwaway Ceph RADOS
# Gateway (scripts/ceph.sh). Installs Debian's chromium, postgresql and ceph when missing.
# Prints how long each step took, and "N passed, N failed" last.
#
# On 2 cores the checks (mostly one thread: ESLint, tsc) run beside the unit and server tests.
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
step "unit and component" vitest_json unit --project unit --project dom --project mocked \
  --maxWorkers=2
# The server suite runs in full once, on PostgreSQL: two workers take half the CPU of PGlite,
# whose database runs as WebAssembly inside each test process. On PGlite, the embedded database
# `npm start` uses, run the files about the database itself (migrations, the entry point's own
# PGlite, transactions, claims and locks that race, notifications) and the files that use no
# database; the end-to-end files run the whole app on PGlite. Without PostgreSQL, all of it runs
# on PGlite.
# Vitest reads these as parts of a file's path (and as globs after --exclude=).
no_database=(server/main.test.ts server/config.test.ts server/storage.test.ts
  server/model-validator.test.ts server/embed-preload.test.ts server/delivery-derive.test.ts
  server/auth/
  server/http/compressed-models.test.ts server/bulk-job-rests.test.ts scripts/ tests/fuzz/)
database_itself=(server/migrate.test.ts server/event-stream.test.ts server/versions.test.ts
  server/refresh.test.ts server/reorder.test.ts server/tag-lock-order.test.ts
  server/morph-worker.test.ts server/deliveries.test.ts server/file-sweeper.test.ts)
if [ -n "$pg_ok" ]; then
  excludes=()
  for path in "${no_database[@]}"; do
    if [[ $path == */ ]]; then excludes+=("--exclude=$path**"); else excludes+=("--exclude=$path"); fi
  done
  TEST_DATABASE_URL=$PG_URL step "server (PostgreSQL)" vitest_json server-pg --project server \
    --maxWorkers=2 "${excludes[@]}"
  step "server (PGlite)" vitest_json server-pglite --project server --maxWorkers=2 \
    "${no_database[@]}" "${database_itself[@]}"
else
  step "server (PGlite)" vitest_json server-pglite --project server --maxWorkers=2
fi
finish "check (format, lint, types)"

step "build" npm run --silent build
# The inspector's end-to-end test needs a development build (dist-dev/, about 10 s).
step "development build" npm run --silent build:dev
# One run of the three end-to-end projects, one after the other (vitest.config.ts): the typing
# test alone, the other files two at a time, then those that draw with WebGL. They share one
# seeded data folder (tests/e2e-global-setup.ts). tests/e2e/two-instances.test.ts runs two
# servers on the PostgreSQL and Ceph started above.
TEST_DATABASE_URL=${PG_URL:-} step "end-to-end (Chromium)" vitest_json e2e \
  --project e2e-quiet --project e2e --project e2e-webgl
[ -n "$pg_ok" ] && pg_stop
ceph_stop

# shellcheck disable=SC2086 # two numbers
took "all tests" $((SECONDS - started)) $start_ticks
node --import tsx scripts/summarize-tests.ts "$results" "${failed_steps[@]}"
