#!/usr/bin/env bash
# Every test CI runs: static checks, unit and machine tests, the server suite on PGlite and
# again on PostgreSQL (beside the builds and end-to-end), a production build, then end-to-end.
# The storage contract runs on local disk and on a real S3 server: a throwaway Ceph RADOS
# Gateway (scripts/ceph.sh). Installs Debian's chromium, postgresql and ceph when missing. Prints "N passed, N failed" last.
set -uo pipefail
cd "$(dirname "$0")/.."

results=.tmp/test-results
rm -rf "$results" && mkdir -p "$results"
failed_steps=()

step() {
  local name=$1
  shift
  echo "::: $name"
  if ! "$@"; then failed_steps+=("$name"); fi
}

bash scripts/system-deps.sh || { echo "could not install system packages"; exit 1; }

vitest_json() { npx vitest run --reporter=default --reporter=json --outputFile.json="$results/$1.json" "${@:2}"; }

step "check (format, lint, types)" npm run --silent check

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
step "unit and server (PGlite)" vitest_json unit --project unit --project dom --project server

# The server suite on PostgreSQL runs beside the builds and the end-to-end tests, on one worker
# (it mostly waits on the database).
# Its output is printed once it has finished.
# shellcheck source=scripts/pg.sh
source scripts/pg.sh
pg_pid=""
if pg_start; then
  (
    export TEST_DATABASE_URL=$PG_URL
    vitest_json server-pg --project server --maxWorkers=1
  ) >"$results/server-pg.log" 2>&1 &
  pg_pid=$!
else
  failed_steps+=("start PostgreSQL")
fi

step "build" npm run --silent build
# The inspector's end-to-end test needs a development build (dist-dev/, about 10 s).
step "development build" npm run --silent build:dev
# tests/e2e/two-instances.test.ts runs two servers on the PostgreSQL and Ceph started above.
TEST_DATABASE_URL=${PG_URL:-} step "end-to-end (Chromium)" vitest_json e2e --project e2e --project e2e-alone

if [ -n "$pg_pid" ]; then
  echo "::: server (PostgreSQL)"
  wait "$pg_pid" || failed_steps+=("server (PostgreSQL)")
  cat "$results/server-pg.log"
  pg_stop
fi
ceph_stop

node --import tsx scripts/summarize-tests.ts "$results" "${failed_steps[@]}"
