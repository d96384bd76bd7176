#!/usr/bin/env bash
# The test command of README.md, and what .ci/run runs: on a Debian machine
# with Go and git it installs what the tests need and is missing, then runs
# `go test ./...` with any arguments given (./test.sh -p 2, ./test.sh -run X).
#
# The tests need, besides Go:
#   git with git-http-backend  the Git servers the tests start (package git)
#   chromium                   the theme's browser tests (package chromium;
#                              or a browser named by DOCWEAVE_CHROMIUM)
#   node and npm               axe-core for the accessibility checks
#                              (packages nodejs and npm; npm fetches
#                              axe-core from the npm registry once)
#   gcc                        building Gitea (SQLite through cgo) for
#                              the forge tests, once per machine, from
#                              its Go module (internal/giteatest)
# A test never skips because one of them is missing: it fails and names the
# package. This script installs them with apt-get, as root or through sudo
# without a password; otherwise it says what to install and stops.
set -euo pipefail
cd "$(dirname "$0")"

need=()
if ! command -v git >/dev/null 2>&1 || [ ! -x "$(git --exec-path 2>/dev/null)/git-http-backend" ]; then
  need+=(git)
fi
if [ -z "${DOCWEAVE_CHROMIUM:-}" ] && ! command -v chromium >/dev/null 2>&1; then
  need+=(chromium)
fi
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  need+=(nodejs npm)
fi
if ! command -v gcc >/dev/null 2>&1; then
  need+=(gcc)
fi

if [ "${#need[@]}" -gt 0 ]; then
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "test.sh: the tests need ${need[*]} (Debian package names); install them with your package manager and run again" >&2
    exit 2
  fi
  run=()
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
      run=(sudo -n)
    else
      echo "test.sh: the tests need the Debian packages ${need[*]}: run as root, or install them with" >&2
      echo "  sudo apt-get install -y --no-install-recommends ${need[*]}" >&2
      exit 2
    fi
  fi
  echo "test.sh: installing ${need[*]}" >&2
  "${run[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q
  "${run[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${need[@]}"
fi

# Gitea, for the forge tests, is built once per machine (a few minutes on
# a fresh one) before the packages that use it run side by side, so that
# no package's test timeout counts the build.
go test -count=1 -timeout 45m -run '^TestServerRunsTheReleaseAndTakesPushes$' ./internal/giteatest

exec go test ./... "$@"
