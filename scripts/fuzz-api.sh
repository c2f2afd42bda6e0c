#!/usr/bin/env bash
# The api against its own contract: schemathesis generates requests from the OpenAPI document the
# api serves (valid ones and invalid ones, with every check it has: no server error, documented
# status codes, content types, headers and bodies, invalid input refused, valid input accepted,
# calls without a token refused, deleted things gone) and fails on any mismatch.
#
# It starts the api binary (`api all`, so summaries run through the worker) on a free port with a
# fresh database of its own, signs in through the development issuer's password grant, fuzzes
# every operation as an ordinary user who accepted the agreement, then the staff operations as
# staff, and drops the database. scripts/fuzz-api.toml holds what the fuzzer must know beyond
# the document (each exception with its reason). The run is bounded: a fixed number of examples per operation, a
# fixed seed (the same requests every run), and a wall-clock cap per pass. Exits non-zero on any
# failure, printing them, and on any ERROR line in the api's log.
#
# schemathesis comes from PyPI into a virtualenv under var/ (git-ignored), made on first use.
#
# Environment: FUZZ_API_BIN (default target/debug/api; build it with `cargo build -p api`),
# FUZZ_EXAMPLES (examples per operation and phase, default 15), FUZZ_SEED (default 20261123),
# FUZZ_TIME_LIMIT (seconds per pass, default 240), FUZZ_DATABASE_HOST (default 127.0.0.1:5432),
# FUZZ_REDIS_URL (default redis://127.0.0.1:6379), FUZZ_KEEP (set: keep the database and logs),
# FUZZ_ONLY (a regular expression: fuzz only the paths it matches, in the user's pass).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

SCHEMATHESIS_VERSION=4.32.5
venv="$root/var/fuzz-venv"
api_bin="${FUZZ_API_BIN:-$root/target/debug/api}"
examples="${FUZZ_EXAMPLES:-15}"
seed="${FUZZ_SEED:-20261123}"
time_limit="${FUZZ_TIME_LIMIT:-240}"
db_host="${FUZZ_DATABASE_HOST:-127.0.0.1:5432}"
pg_host="${db_host%%:*}"
pg_port="${db_host##*:}"
[[ "$pg_port" == "$db_host" ]] && pg_port=5432
redis_url="${FUZZ_REDIS_URL:-redis://127.0.0.1:6379}"

say() { printf 'fuzz-api: %s\n' "$*" >&2; }
die() {
	say "$*"
	exit 1
}

# --- schemathesis ---------------------------------------------------------------------------
if [[ "$("$venv/bin/schemathesis" --version 2>/dev/null || true)" != *" $SCHEMATHESIS_VERSION" ]]; then
	command -v python3 >/dev/null || die "python3 is missing (Debian: apt-get install python3 python3-venv)"
	if [[ ! -x "$venv/bin/pip" ]]; then
		say "making the virtualenv $venv"
		rm -rf "$venv"
		python3 -m venv "$venv" || die "python3 cannot make a virtualenv: install the Debian package python3-venv"
	fi
	say "installing schemathesis $SCHEMATHESIS_VERSION"
	"$venv/bin/pip" install --quiet --disable-pip-version-check "schemathesis==$SCHEMATHESIS_VERSION"
fi

# --- the api on a database of its own -------------------------------------------------------
[[ -x "$api_bin" ]] || die "the api binary $api_bin does not exist; build it with \`cargo build -p api\` (or set FUZZ_API_BIN)"
command -v psql >/dev/null || die "psql is missing (Debian: apt-get install postgresql-client)"

port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
url="http://127.0.0.1:$port"
database="spreekkamer_fuzz_$(python3 -c 'import secrets; print(secrets.token_hex(4))')"
work="$(mktemp -d "${TMPDIR:-/tmp}/spreekkamer-fuzz-XXXXXX")"
log="$work/api.log"
api_pid=

clean_up() {
	local status=$?
	if [[ -n "$api_pid" ]] && kill -0 "$api_pid" 2>/dev/null; then
		kill -TERM "$api_pid" 2>/dev/null || true
		for _ in $(seq 100); do kill -0 "$api_pid" 2>/dev/null || break; sleep 0.1; done
		kill -KILL "$api_pid" 2>/dev/null || true
	fi
	if [[ -n "${FUZZ_KEEP:-}" ]]; then
		say "kept the database $database and the logs in $work"
	else
		psql -h "$pg_host" -p "$pg_port" -U postgres -v ON_ERROR_STOP=1 -q \
			-c "drop database if exists $database with (force)" >/dev/null ||
			say "could not drop the database $database"
		rm -rf "$work"
	fi
	exit "$status"
}
trap clean_up EXIT
trap 'exit 130' INT TERM

# Rate limits would answer the fuzzer's bursts with 429: all of them are off for this api alone
# (the document still lists the 429 of every limited call).
say "starting $api_bin on $url with the database $database"
env APP_ENV=development \
	APP_HTTP_ADDR="127.0.0.1:$port" \
	APP_PUBLIC_URL="$url" \
	APP_DATABASE_URL="postgres://postgres@$pg_host:$pg_port/$database" \
	APP_REDIS_URL="$redis_url" \
	APP_JOBS_NAMESPACE="fuzz-$$" \
	APP_MAIL_OUTBOX="$work/outbox" \
	APP_WEB_DIST="$work/no-spa" \
	APP_LOG_FORMAT=json \
	APP_LOG=info \
	APP_SPEECH_URL= APP_SPEECH_RADIOLOGY_URL= APP_LLM_URL= \
	APP_SUMMARY_WAIT=5s \
	APP_RECORD_SYSTEM_REDIRECT_ORIGINS=https://his.example.nl \
	APP_RATE_LIMITS=off \
	"$api_bin" all >"$log" 2>&1 &
api_pid=$!

for attempt in $(seq 240); do
	kill -0 "$api_pid" 2>/dev/null || { cat "$log" >&2; die "the api exited early"; }
	[[ "$(curl -s -o /dev/null -w '%{http_code}' "$url/readyz" || true)" == 200 ]] && break
	((attempt == 240)) && { cat "$log" >&2; die "the api was not ready after 60 s"; }
	sleep 0.25
done

token() {
	curl -sf -d grant_type=password -d "username=$1" -d password=x -d client_id=spreekkamer-web "$url/oidc/token" |
		python3 -c 'import json, sys; print(json.load(sys.stdin)["access_token"])'
}

# --- the passes -----------------------------------------------------------------------------
# One worker: hypothesis is not thread-safe, and two made schemathesis fail inside itself. A
# request whose connection the api closed right after the previous answer (as HTTP servers may
# once a keep-alive connection's previous request body was left unread) is sent once more on a
# new connection, as browsers do; a second failure counts.
# Nothing is excluded: the document lists every REST call (a test in api/tests/openapi.rs keeps it
# so). What it leaves out is not fuzzed here: the live consult websocket (its own tests and the
# browser tests), the development sign-in issuer under /oidc (not part of the product's api) and
# the SPA's files.
failed=0
run_pass() {
	local name="$1" user="$2"
	shift 2
	local access
	access="$(token "$user")" || die "no token for $user"
	say "pass '$name' as $user: $examples examples per operation, seed $seed, at most $time_limit s"
	local status=0
	# from the run's own folder: schemathesis keeps a cache in the working directory
	(cd "$work" && timeout --signal=INT --kill-after=15 "$time_limit" \
		"$venv/bin/schemathesis" --config-file "$root/scripts/fuzz-api.toml" run "$url/api/openapi.json" \
		--checks all \
		--max-examples "$examples" \
		--seed "$seed" \
		--generation-database none \
		--workers 1 \
		--request-timeout 30 \
		--request-retries 1 \
		--header "Authorization: Bearer $access" \
		--report junit --report-junit-path "$work/$name.xml" \
		--no-color \
		"$@") || status=$?
	if ((status == 124 || status == 130)); then
		say "pass '$name' did not finish within $time_limit s"
	fi
	((status == 0)) || failed=1
}

run_pass user huisarts@example.nl ${FUZZ_ONLY:+--include-path-regex "$FUZZ_ONLY"}
run_pass staff staff@example.nl --include-tag cms

if grep -q '"level":"ERROR"' "$log"; then
	say "the api logged errors during the run:"
	grep '"level":"ERROR"' "$log" >&2
	failed=1
fi

if ((failed)); then
	say "FAILED: see the failures above"
	exit 1
fi
say "passed: no server errors and no contract failures"
