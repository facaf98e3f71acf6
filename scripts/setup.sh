#!/usr/bin/env bash
# Installs the system packages Switchboard builds against, when they are missing.
# Debian/Ubuntu; runs apt-get as root or through sudo.
set -euo pipefail

# zlib1g-dev: zlib, which reads the zip and .tar.gz archives LeanCloud's exports come in.
# postgresql: the tests run the suites again on a throwaway PostgreSQL (scripts/with-postgres).
# node-*: real npm packages under /usr/share/nodejs, for the tests of hooks.modulePaths and
# of Node's modules (NodeModulesTests vendors Debian's uuid@8 in a project).
packages=(libsqlite3-dev zlib1g-dev pkg-config libjavascriptcoregtk-4.1-dev postgresql node-underscore node-moment node-uuid node-lodash)

missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "Installing system packages: ${missing[*]}"
if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}"
