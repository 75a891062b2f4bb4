#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for tests and benchmarks (Debian's postgresql-15, or any on PATH).
#
#   eval "$(scripts/pg-test-server.sh start)"   # prints export lines: ATR_TEST_PG_URL, ATR_TEST_PG_DIR
#   scripts/pg-test-server.sh stop "$ATR_TEST_PG_DIR"
#
# start: initdb in a fresh temp directory (as the postgres user when run as root: root may not run
# initdb), a role `atr` with a random password (scram-sha-256 over TCP), listening on 127.0.0.1 only,
# on a free port, unix socket inside the temp directory; fsync off (the data is thrown away).
# stop: stops the server and removes the directory.
set -euo pipefail

find_bin() {
  if command -v "$1" >/dev/null 2>&1; then command -v "$1"; return; fi
  local b
  for b in /usr/lib/postgresql/*/bin/"$1"; do [ -x "$b" ] && { echo "$b"; return; }; done
  echo "pg-test-server.sh: $1 not found; install PostgreSQL (apt-get install -y postgresql-15)" >&2
  exit 1
}

as_owner() {
  if [ "$(id -u)" = "0" ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

case "${1:-}" in
  start)
    initdb=$(find_bin initdb)
    pg_ctl=$(find_bin pg_ctl)
    dir=$(mktemp -d "${TMPDIR:-/tmp}/atr-pg.XXXXXX")
    chmod 700 "$dir"
    password=$(node -e 'process.stdout.write(require("crypto").randomBytes(12).toString("hex"))')
    printf '%s\n' "$password" >"$dir/pwfile"
    [ "$(id -u)" = "0" ] && chown -R postgres:postgres "$dir"
    as_owner "$initdb" -D "$dir/data" -U atr --pwfile="$dir/pwfile" --auth-host=scram-sha-256 --auth-local=trust \
      -E UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 || { cat "$dir/initdb.log" >&2; exit 1; }
    rm -f "$dir/pwfile"
    port=$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{process.stdout.write(String(s.address().port));s.close()})')
    as_owner "$pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
      -o "-c listen_addresses=127.0.0.1 -p $port -c unix_socket_directories=$dir -c fsync=off -c synchronous_commit=off -c full_page_writes=off" \
      start >/dev/null || { cat "$dir/server.log" >&2; exit 1; }
    echo "export ATR_TEST_PG_URL='postgres://atr:$password@127.0.0.1:$port/postgres'"
    echo "export ATR_TEST_PG_DIR='$dir'"
    ;;
  stop)
    dir="${2:-${ATR_TEST_PG_DIR:-}}"
    case "$dir" in
      */atr-pg.*) ;;
      *) echo "pg-test-server.sh stop: give the directory printed by start (ATR_TEST_PG_DIR)" >&2; exit 2 ;;
    esac
    if [ -d "$dir/data" ]; then as_owner "$(find_bin pg_ctl)" -D "$dir/data" -m fast -w stop >/dev/null || true; fi
    rm -rf "$dir"
    ;;
  *)
    echo "usage: scripts/pg-test-server.sh start|stop [dir]" >&2
    exit 2
    ;;
esac
