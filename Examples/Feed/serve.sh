#!/usr/bin/env bash
# Serves a feed with Debian's nginx (scripts/setup.sh installs it) on a free port of 127.0.0.1,
# as any static host would: files as they are, with byte ranges and ETags. A generated
# configuration in WORK; nginx runs in the foreground of a background job (no daemon, no master
# process), its pid in WORK/nginx.pid: `kill "$(cat WORK/nginx.pid)"` stops it.
#
# usage: Examples/Feed/serve.sh FEED WORK     prints the feed's URL, http://127.0.0.1:PORT/
set -euo pipefail
feed="$(cd "$1" && pwd)"
mkdir -p "$2"
work="$(cd "$2" && pwd)"
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
cat > "$work/nginx.conf" <<CONF
daemon off;
master_process off;
worker_processes 1;
pid $work/nginx.run.pid;
error_log $work/error.log warn;
events { worker_connections 64; }
http {
    log_format feed '\$status \$bytes_sent \$request_uri';
    access_log $work/access.log feed;
    client_body_temp_path $work/client_body;
    proxy_temp_path $work/proxy;
    fastcgi_temp_path $work/fastcgi;
    uwsgi_temp_path $work/uwsgi;
    scgi_temp_path $work/scgi;
    default_type application/octet-stream;
    server {
        listen 127.0.0.1:$port;
        root $feed;
    }
}
CONF
/usr/sbin/nginx -p "$work" -c "$work/nginx.conf" -e "$work/error.log" </dev/null >/dev/null 2>&1 &
echo $! > "$work/nginx.pid"
for _ in $(seq 1 250); do
  if python3 -c 'import socket, sys; sys.exit(socket.socket().connect_ex(("127.0.0.1", int(sys.argv[1]))))' "$port"; then
    echo "http://127.0.0.1:$port/"
    exit 0
  fi
  kill -0 "$(cat "$work/nginx.pid")" 2>/dev/null || break
  sleep 0.04
done
echo "serve.sh: nginx did not start: $(cat "$work/error.log" 2>/dev/null)" >&2
exit 1
