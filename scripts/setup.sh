#!/usr/bin/env bash
# Installs the Debian packages selfplay needs, only those missing. Idempotent; run as root (or with
# sudo available). The CUDA toolkit is expected on the machine already (nvcc on the PATH or in
# /usr/local/cuda); without it the CUDA backend is simply not built.
set -euo pipefail

packages=(
  cmake g++ make ninja-build pkg-config git clang-format
  libyaml-cpp-dev libhdf5-dev hdf5-tools libcli11-dev libfmt-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  libopenmpi-dev openmpi-bin
  python3 python3-h5py python3-numpy python3-pandas python3-matplotlib
  python3-nbclient python3-nbformat python3-ipykernel
  chromium
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#packages[@]} packages present"
  exit 0
fi

echo "setup: installing ${missing[*]}"
sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "setup: done"
