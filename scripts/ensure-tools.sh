#!/usr/bin/env bash
# Makes sure the programs `make test` uses besides Rust, Node.js, PostgreSQL and Redis are there.
# Missing ones are installed from Debian's packages when this runs as root (or with password-less
# sudo) on a machine with apt-get; otherwise the script names the packages to install and fails.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)

# what is checked | Debian package | what needs it
checks=(
  "file:/usr/bin/chromium|chromium|the browser tests (playwright-core drives Debian's Chromium)"
  "cmd:pdftotext|poppler-utils|the agreement test reads the PDF back"
  "cmd:espeak-ng|espeak-ng|the live-consult browser test speaks Dutch into a fake microphone"
  "cmd:sox|sox|the live-consult browser test resamples that speech"
  "cmd:redis-server|redis-server|the job tests start Redis servers of their own"
  "cmd:psql|postgresql-client|the make run check drops its database"
  "cmd:curl|curl|the make run check and the API fuzz run"
  "cmd:git|git|the make run check clones the committed tree"
  "venv|python3-venv|the API fuzz run installs schemathesis in a virtual environment"
)

present() {
  case $1 in
    file:*) [ -x "${1#file:}" ] ;;
    cmd:*) command -v "${1#cmd:}" >/dev/null 2>&1 ;;
    # Debian's python3 without python3-venv has the module but cannot make one: try it
    venv) [ -x "$root/var/fuzz-venv/bin/pip" ] || {
      command -v python3 >/dev/null 2>&1 || return 1
      local tmp ok=0
      tmp=$(mktemp -d)
      python3 -m venv "$tmp/venv" >/dev/null 2>&1 || ok=1
      rm -rf "$tmp"
      return $ok
    } ;;
  esac
}

packages=()
reasons=()
for check in "${checks[@]}"; do
  IFS='|' read -r what package why <<<"$check"
  if ! present "$what"; then
    packages+=("$package")
    reasons+=("  - $package: $why")
  fi
done
[ ${#packages[@]} -eq 0 ] && exit 0

sudo=""
if [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
  sudo="sudo"
fi
if command -v apt-get >/dev/null 2>&1 && { [ "$(id -u)" -eq 0 ] || [ -n "$sudo" ]; }; then
  echo "Installing ${packages[*]} for the tests ..."
  printf '%s\n' "${reasons[@]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${packages[@]}" >/dev/null
  exit 0
fi

echo
echo "The tests need these Debian packages (apt-get install ${packages[*]}):"
printf '%s\n' "${reasons[@]}"
exit 1
