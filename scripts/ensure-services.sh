#!/usr/bin/env bash
# Makes sure PostgreSQL (127.0.0.1:5432) and Redis (127.0.0.1:6379) answer: starts the local
# servers when they are installed but stopped, and otherwise says what to install instead.
set -uo pipefail

listening() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

wait_for() {
  local port=$1
  for _ in $(seq 1 30); do
    listening "$port" && return 0
    sleep 1
  done
  return 1
}

missing=()

if ! listening 5432; then
  if command -v pg_ctlcluster >/dev/null 2>&1 && [ -d /etc/postgresql ] && [ -n "$(ls /etc/postgresql 2>/dev/null)" ]; then
    echo "Starting PostgreSQL ..."
    version=$(ls /etc/postgresql | sort -V | tail -n 1)
    pg_ctlcluster --skip-systemctl-redirect "$version" main start >/dev/null 2>&1 || pg_ctlcluster "$version" main start
    wait_for 5432 || missing+=("PostgreSQL is installed but does not start on 127.0.0.1:5432; see its log in /var/log/postgresql")
  else
    missing+=("PostgreSQL is not running on 127.0.0.1:5432 and not installed (Debian/Ubuntu: apt-get install postgresql; it must accept the user postgres without a password from 127.0.0.1, or set APP_DATABASE_URL)")
  fi
fi

if ! listening 6379; then
  if command -v redis-server >/dev/null 2>&1; then
    echo "Starting Redis ..."
    dir=/var/lib/redis
    [ -w "$dir" ] || dir=$(mktemp -d)
    redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no --dir "$dir" >/dev/null
    wait_for 6379 || missing+=("Redis is installed but does not start on 127.0.0.1:6379")
  else
    missing+=("Redis is not running on 127.0.0.1:6379 and not installed (Debian/Ubuntu: apt-get install redis-server)")
  fi
fi

if [ ${#missing[@]} -gt 0 ]; then
  echo
  echo "Spreekkamer needs PostgreSQL and Redis:"
  for m in "${missing[@]}"; do echo "  - $m"; done
  echo
  echo "Or run the whole stack in containers instead: docker compose up --build"
  exit 1
fi
