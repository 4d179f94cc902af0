#!/usr/bin/env bash
# A private PostgreSQL cluster for tests and local replicas: Debian's `postgresql` (installed when
# missing), in a folder of its own, listening on 127.0.0.1:PORT and a Unix socket in that folder,
# trust authentication for local connections only. Nothing of the machine's own clusters is touched.
#
#   bash scripts/postgres.sh start DIR PORT   # prints the database URL once it accepts connections
#   bash scripts/postgres.sh stop DIR         # fast shutdown, then removes DIR
#   bash scripts/postgres.sh restart DIR      # stop and start again, keeping the data (tests)
#   bash scripts/postgres.sh url DIR          # the URL of a running cluster
set -euo pipefail

command="${1:-}"
dir="${2:-}"
[ -n "$command" ] && [ -n "$dir" ] || { echo "usage: $0 start|stop|restart|url DIR [PORT]" >&2; exit 2; }

bin_dir() {
  local found
  found=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)
  if [ -z "$found" ] || [ ! -x "$found/initdb" ]; then
    echo "==> installing: postgresql (Debian)" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >&2 && apt-get install -y -qq postgresql >&2
    found=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
  fi
  echo "$found"
}

# initdb and the server refuse to run as root: as root, run them as the `postgres` user
# (Debian's package creates it), owning the cluster's folder.
as_owner() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

url_of() { echo "postgres://postgres@127.0.0.1:$(cat "$1/port")/postgres?sslmode=disable"; }

case "$command" in
  start)
    port="${3:?start needs a PORT}"
    bin=$(bin_dir)
    mkdir -p "$dir"
    if [ "$(id -u)" = 0 ]; then chown postgres: "$dir"; chmod 700 "$dir"; fi
    echo "$port" > "$dir/port"
    if [ ! -f "$dir/data/PG_VERSION" ]; then
      as_owner "$bin/initdb" -D "$dir/data" -U postgres --auth=trust --no-sync -E UTF8 --locale=C >"$dir/initdb.log" 2>&1 \
        || { cat "$dir/initdb.log" >&2; exit 1; }
    fi
    # Loopback and a socket in DIR only; no fsync (test data), enough connections for several
    # replicas' pools.
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
      -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off -c max_connections=300" start >/dev/null \
      || { tail -20 "$dir/server.log" >&2; exit 1; }
    url_of "$dir"
    ;;
  restart)
    bin=$(bin_dir)
    port=$(cat "$dir/port")
    as_owner "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
      -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off -c max_connections=300" start >/dev/null
    url_of "$dir"
    ;;
  stop)
    if [ -f "$dir/data/postmaster.pid" ]; then
      bin=$(bin_dir)
      as_owner "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null 2>&1 || true
    fi
    rm -rf "$dir"
    ;;
  url)
    url_of "$dir"
    ;;
  *)
    echo "unknown command '$command' (start, stop, restart, url)" >&2
    exit 2
    ;;
esac
