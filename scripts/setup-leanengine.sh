#!/usr/bin/env bash
# LeanCloud's own engine SDK for Python (PyPI: leancloud), which the remote hook tests run
# as the LeanEngine app Switchboard calls. Installed once into .build/leanengine.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=.build/leanengine
if "$venv/bin/python" -c "import leancloud" 2>/dev/null; then
  exit 0
fi
if ! python3 -c "import ensurepip" 2>/dev/null; then
  echo "Installing system packages: python3-venv"
  if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq python3-venv
fi
echo "Installing LeanCloud's Python engine SDK into $venv"
python3 -m venv "$venv"
"$venv/bin/pip" install --quiet --disable-pip-version-check "leancloud==3.0.2"
