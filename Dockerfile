# syntax=docker/dockerfile:1
#
# One image for the three Spreekkamer processes: `api` (default command), `worker`, `scheduler`.
# Pick the process with the container's command, e.g. `docker run IMAGE worker`
# (docker-compose.yml does this per service).
#
#   docker build -t spreekkamer .
#
# The api is built WITHOUT the `dev-oidc` feature: the embedded development sign-in issuer is not
# in this image, so it always needs a real identity provider (APP_AUTH_ISSUER, see deploy/).
# Migrations are embedded in the api binary (`api migrate`, and applied at every api start).

ARG RUST_VERSION=1.95
ARG NODE_VERSION=20
ARG DEBIAN_RELEASE=bookworm

# --- 1. the SPA (web/ → web/dist) -------------------------------------------------------------
FROM node:${NODE_VERSION}-${DEBIAN_RELEASE}-slim AS web
WORKDIR /src/web
COPY web/package.json web/package-lock.json ./
# `npm install` with the committed lock: it records only the platform builds of optional native
# packages that were installable where it was made, which `npm ci` would refuse.
RUN --mount=type=cache,target=/root/.npm \
    npm install --no-audit --no-fund
COPY web/ ./
RUN npm run build

# --- 2. the Rust binaries ---------------------------------------------------------------------
FROM rust:${RUST_VERSION}-${DEBIAN_RELEASE} AS build
WORKDIR /src
# sqlx macros never reach for a database during the image build (they use .sqlx/ when present).
ENV SQLX_OFFLINE=true \
    CARGO_TERM_COLOR=never
COPY . .
# The registry and target folders live in BuildKit cache mounts, so a rebuild only compiles what
# changed. The binaries are copied out of the cache mount in the same step.
RUN --mount=type=cache,target=/usr/local/cargo/registry,sharing=locked \
    --mount=type=cache,target=/usr/local/cargo/git,sharing=locked \
    --mount=type=cache,target=/src/target,sharing=locked \
    cargo build --release --locked -p api --no-default-features \
 && cargo build --release --locked -p worker -p scheduler \
 && mkdir -p /out \
 && cp target/release/api target/release/worker target/release/scheduler /out/

# --- 3. the runtime ---------------------------------------------------------------------------
FROM debian:${DEBIAN_RELEASE}-slim AS runtime
# ca-certificates: TLS to outside services; tzdata: Europe/Amsterdam for the scheduler's cron.
# The binaries link nothing but the C runtime (Opus is decoded in Rust).
# Not pinned on purpose: a rebuild picks up the distribution's security updates.
# hadolint ignore=DL3008
RUN apt-get update \
 && apt-get install -y --no-install-recommends ca-certificates tzdata \
 && rm -rf /var/lib/apt/lists/*
RUN groupadd --system --gid 10001 spreekkamer \
 && useradd --system --uid 10001 --gid spreekkamer --home-dir /app --no-create-home \
      --shell /usr/sbin/nologin spreekkamer \
 && mkdir -p /app/.data \
 && chown spreekkamer:spreekkamer /app/.data
WORKDIR /app
COPY --from=build /out/api /out/worker /out/scheduler /usr/local/bin/
COPY --from=web /src/web/dist /app/web/dist

ENV APP_ENV=production \
    APP_HTTP_ADDR=0.0.0.0:8080 \
    APP_WEB_DIST=/app/web/dist \
    APP_LOG_FORMAT=json \
    TZ=Europe/Amsterdam
# TZ: local time is Dutch time (the scheduler's cron runs in Europe/Amsterdam); logs stay in UTC.

USER 10001:10001
EXPOSE 8080
# No HEALTHCHECK here: the same image runs the worker and the scheduler, which serve no HTTP.
# The api answers GET /healthz (up) and GET /readyz (PostgreSQL and Redis reachable);
# docker-compose.yml checks /readyz for the api service.
CMD ["api", "serve"]
