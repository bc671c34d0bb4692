#!/usr/bin/env bash
# Installs labgrid (the version pinned in requirements.txt) into the project's own virtual environment,
# .venv-labgrid beside Package.swift, never system-wide; prints its bin folder. Quiet when it is already there.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
venv="$root/.venv-labgrid"
requirements="$root/Rigs/labgrid/requirements.txt"
pinned="$(grep -E '^labgrid==' "$requirements" | cut -d= -f3)"

if [ -x "$venv/bin/labgrid-client" ] && [ "$("$venv/bin/python" -c 'import importlib.metadata as m; print(m.version("labgrid"))' 2>/dev/null)" = "$pinned" ]; then
    echo "$venv/bin"
    exit 0
fi
# Debian's python3 (not a pyenv shim), with its venv module (python3-venv).
python=/usr/bin/python3
if ! "$python" -c 'import ensurepip, venv' 2>/dev/null; then
    echo "venv.sh: installing python3-venv (Debian) for python3 -m venv" >&2
    apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv >&2
fi
echo "venv.sh: installing labgrid $pinned into $venv" >&2
rm -rf "$venv"
"$python" -m venv "$venv"
"$venv/bin/pip" install -q --disable-pip-version-check -r "$requirements" >&2
"$venv/bin/labgrid-client" --help >/dev/null
echo "$venv/bin"
