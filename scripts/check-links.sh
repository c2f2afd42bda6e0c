#!/usr/bin/env bash
# Proves that the three binaries need no shared library beyond the C runtime, so `make run` and
# the container image need no system package (no libopus, no OpenSSL) besides what Rust needs.
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"
cargo build --quiet -p api -p worker -p scheduler
target=${CARGO_TARGET_DIR:-target}
# the C runtime: libc, libm, the unwinder, the dynamic loader (and what older glibc split off)
allowed='^(libc\.so\.6|libm\.so\.6|libgcc_s\.so\.1|ld-linux[-a-z0-9_.]*\.so\.[0-9]+|libpthread\.so\.0|libdl\.so\.2|librt\.so\.1)$'
passed=0
failed=0
for bin in api worker scheduler; do
  needed=$(readelf -d "$target/debug/$bin" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
  extra=$(grep -Ev "$allowed" <<<"$needed" || true)
  if [ -n "$extra" ]; then
    echo "$bin links libraries beyond the C runtime: $(tr '\n' ' ' <<<"$extra")"
    failed=$((failed + 1))
  else
    passed=$((passed + 1))
  fi
done
echo "links: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
