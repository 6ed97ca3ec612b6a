#!/usr/bin/env sh
# Runs the credential-store tests against a real Secret Service (GNOME Keyring) on a private
# session bus, in a throw-away home: never the developer's own bus or keyring. Needs dbus-run-session
# (dbus) and gnome-keyring (Debian: apt-get install dbus gnome-keyring libsecret-tools). Run from
# the repository after `npm run build`: sh test/keyring/run-private-bus.sh [vitest options]
set -eu
cd "$(dirname "$0")/../.."
home=$(mktemp -d "${TMPDIR:-/tmp}/mtg-keyring-home-XXXXXX")
trap 'rm -rf "$home"' EXIT
trap 'exit 130' INT TERM
# The keyring files (XDG_DATA_HOME/keyrings) go to the throw-away home.
HOME="$home" XDG_DATA_HOME="$home/.local/share" XDG_RUNTIME_DIR="" \
  dbus-run-session -- sh -c '
    eval "$(printf pw | gnome-keyring-daemon --unlock --components=secrets)"
    MTG_TEST_PRIVATE_BUS=1 exec npx vitest run --config vitest.keyring.config.ts "$@"
  ' sh "$@"
