# Spreekkamer: the two commands a newcomer needs are `make run` and `make test`.

SHELL := /bin/bash
.DEFAULT_GOAL := help
export APP_ENV ?= development
# Tests create one database each through this server (see .cargo/config.toml).
export DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/postgres

.PHONY: help run test test-rust test-web test-e2e test-fuzz test-make-run test-links services tools web web-deps openapi lint bench-jobs soak-payments sqlx-data

help:
	@echo "make run    start Spreekkamer on http://localhost:8080 (development sign-in, local PostgreSQL and Redis)"
	@echo "make test   run every test (Rust, web unit tests, API contract, browser end-to-end, API fuzzing, make run check)"

## Start everything on the embedded defaults: api, worker and scheduler in one process.
run: services web
	cargo run --quiet -p api -- all

## Every test.
test: services tools lint test-rust test-web test-e2e test-fuzz test-make-run test-links

services:
	@scripts/ensure-services.sh

## The programs the tests use (Chromium, pdftotext, espeak-ng, sox, ...): installed when missing.
tools:
	@scripts/ensure-tools.sh

web-deps: web/node_modules/.package-lock.json

web/node_modules/.package-lock.json: web/package.json web/package-lock.json
	@command -v npm >/dev/null || { echo "npm is missing: install Node.js 20.19 or newer (Debian: apt-get install nodejs npm)"; exit 1; }
	# `npm install` rather than `npm ci`: the lock file records only the platform builds of optional
	# native packages (Tailwind's engine) that were installable here, and `npm ci` insists on all.
	cd web && npm install --no-audit --no-fund
	@touch $@

web: web-deps
	cd web && npm run build

## Formatting (rustfmt.toml) and clippy; ESLint runs with the web tests.
lint:
	cargo fmt --all -- --check
	cargo clippy --workspace --all-targets --quiet -- -D warnings

## The compile-checked statements' descriptions in .sqlx/ are checked first (scripts/sqlx-data.sh);
## the tests then reuse that build.
test-rust: services
	scripts/sqlx-data.sh --check
	cargo test --workspace

test-web: web-deps
	cd web && npm run typecheck && npm run lint && npm test && npm run api:check && npm run build

test-e2e: web
	cargo build -p api
	cd web && npm run e2e

## The api against its OpenAPI document: a bounded schemathesis run (scripts/fuzz-api.sh).
test-fuzz: services
	cargo build -p api
	scripts/fuzz-api.sh

test-make-run:
	scripts/check-make-run.sh

test-links:
	scripts/check-links.sh

## The job-queue benchmark beside BullMQ and Celery (figures in docs/benchmarks.md).
bench-jobs: services
	bench/jobs/run.sh

## The payments fault soak at full size: 1,000 purchases through a Mollie stand-in that loses,
## repeats and reorders webhooks and fails its API for a while (`make test` runs it with 40).
soak-payments: services
	SOAK_PURCHASES=1000 cargo test --workspace --test payments_soak -- --nocapture

## Write .sqlx/ again after changing a compile-checked SQL statement or a migration.
sqlx-data: services
	scripts/sqlx-data.sh

## Accept an intended change of the API contract and regenerate the SPA's types.
openapi:
	UPDATE_OPENAPI=1 cargo test -p api --test openapi --quiet
	cd web && npm run api:types
