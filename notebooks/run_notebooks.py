#!/usr/bin/python3
"""Executes the notebooks in this folder with nbclient and fails if any cell raises.

Usage: /usr/bin/python3 notebooks/run_notebooks.py [--campaign FILE] [--sweep CSV[,CSV...]]
                                                   [--tune-log CSV] [--spsa FILE] [--match FILE]
                                                   [--host-capacity CSV] [--selfplay BIN] [--lineage FILE] [--search FILE]
                                                   [--output-dir DIR]
                                                   [NOTEBOOK ...]

--campaign, --sweep, --tune-log, --spsa, --match, --host-capacity and --selfplay set SELFPLAY_CAMPAIGN,
SELFPLAY_SWEEP_CSV, SELFPLAY_TUNE_LOG, SELFPLAY_SPSA, SELFPLAY_MATCH, SELFPLAY_HOST_CSV and
SELFPLAY_BIN (the selfplay binary that exports boards) for the kernel (otherwise the notebooks read
those variables from the environment, or fall back to their defaults). Without
NOTEBOOK arguments every *.ipynb here runs. --output-dir saves the executed notebooks there (the
committed ones stay without outputs). The kernel is the Jupyter kernel spec "python3"; if there is
none, it is installed for the user, pointing at this interpreter. Exit code 0 when every notebook
ran, 1 when a cell raised (its error is printed), 2 for a usage or setup problem.
"""

from __future__ import annotations

import argparse
import glob
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
KERNEL = "python3"
# What the notebooks import; the kernel's interpreter must have them.
KERNEL_MODULES = "h5py, numpy, pandas, matplotlib"
ANSI_ESCAPE = re.compile(r"\x1b\[[0-9;]*m")  # IPython colours its tracebacks

try:
    import nbclient
    import nbformat
    from jupyter_client.kernelspec import KernelSpecManager, NoSuchKernel
except ImportError as e:
    print(f"run_notebooks: {e}; run it with /usr/bin/python3 after scripts/setup.sh "
          "(python3-nbclient, python3-nbformat, python3-ipykernel)", file=sys.stderr)
    sys.exit(2)


def ensure_kernel() -> list[str]:
    """Returns the argv of the "python3" kernel spec, installing one for the user (pointing at
    sys.executable) when none is found. Exits with 2 if its interpreter lacks KERNEL_MODULES."""
    manager = KernelSpecManager()
    try:
        spec = manager.get_kernel_spec(KERNEL)
    except NoSuchKernel:
        print(f"run_notebooks: no '{KERNEL}' kernel spec; installing one for {sys.executable}", flush=True)
        subprocess.run([sys.executable, "-m", "ipykernel", "install", "--user", "--name", KERNEL],
                       check=True, stdout=subprocess.DEVNULL)
        spec = KernelSpecManager().get_kernel_spec(KERNEL)
    python = spec.argv[0]
    if python in ("python", "python3", f"python3.{sys.version_info[1]}"):
        python = sys.executable  # jupyter_client launches such a spec with this interpreter
    probe = subprocess.run([python, "-c", f"import {KERNEL_MODULES}"], capture_output=True, text=True)
    if probe.returncode != 0:
        print(f"run_notebooks: the '{KERNEL}' kernel ({spec.resource_dir}) runs {python}, which cannot "
              f"import {KERNEL_MODULES}:\n{probe.stderr.strip()}\n"
              f"Point it at Debian's Python: {sys.executable} -m ipykernel install --user", file=sys.stderr)
        sys.exit(2)
    return spec.argv


def run_one(path: str, output_dir: str | None, timeout_s: int) -> bool:
    """Executes one notebook in its own folder; returns False (after printing the failing cell's
    error) if a cell raised."""
    nb = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(nb, kernel_name=KERNEL, timeout=timeout_s,
                                     resources={"metadata": {"path": os.path.dirname(path)}})
    start = time.monotonic()
    ok = True
    try:
        client.execute()
    except nbclient.exceptions.CellExecutionError as e:
        print(f"FAIL {os.path.basename(path)}: a cell raised\n{ANSI_ESCAPE.sub('', str(e))}", flush=True)
        ok = False
    except nbclient.exceptions.CellTimeoutError as e:
        print(f"FAIL {os.path.basename(path)}: a cell ran past {timeout_s} s\n{ANSI_ESCAPE.sub('', str(e))}", flush=True)
        ok = False
    if ok:
        print(f"ok   {os.path.basename(path)} ({time.monotonic() - start:.1f} s)", flush=True)
    if output_dir:
        os.makedirs(output_dir, exist_ok=True)
        nbformat.write(nb, os.path.join(output_dir, os.path.basename(path)))
    return ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--campaign", help="campaign HDF5 file (sets SELFPLAY_CAMPAIGN)")
    parser.add_argument("--sweep", help="bench sweep CSV(s), comma-separated (sets SELFPLAY_SWEEP_CSV)")
    parser.add_argument("--tune-log", help="texel loss CSV of selfplay tune --log (sets SELFPLAY_TUNE_LOG)")
    parser.add_argument("--spsa", help="SPSA trajectory HDF5 (sets SELFPLAY_SPSA)")
    parser.add_argument("--match", help="match HDF5 file (sets SELFPLAY_MATCH)")
    parser.add_argument("--host-capacity", help="experiments/host-capacity CSV (sets SELFPLAY_HOST_CSV)")
    parser.add_argument("--selfplay", help="the selfplay binary, for the boards (sets SELFPLAY_BIN)")
    parser.add_argument("--scaling", help="experiments/rollout-scaling scaling CSV (sets SELFPLAY_SCALING_CSV)")
    parser.add_argument("--throughput", help="experiments/rollout-scaling throughput CSV (sets SELFPLAY_THROUGHPUT_CSV)")
    parser.add_argument("--lineage", help="lineage.h5 of selfplay improve (sets SELFPLAY_LINEAGE)")
    parser.add_argument("--search", help="campaign or match file with search records (sets SELFPLAY_SEARCH)")
    parser.add_argument("--output-dir", help="save the executed notebooks here")
    parser.add_argument("--timeout", type=int, default=300, help="seconds per cell (default 300)")
    parser.add_argument("notebooks", nargs="*", help="notebooks to run (default: every *.ipynb here)")
    args = parser.parse_args()

    # The kernel inherits this environment; its working directory is the notebook's folder, so
    # relative input paths are made absolute here.
    if args.campaign:
        os.environ["SELFPLAY_CAMPAIGN"] = os.path.abspath(args.campaign)
    if args.sweep:
        os.environ["SELFPLAY_SWEEP_CSV"] = ",".join(os.path.abspath(p.strip()) for p in args.sweep.split(",") if p.strip())
    for value, name in ((args.tune_log, "SELFPLAY_TUNE_LOG"), (args.spsa, "SELFPLAY_SPSA"),
                        (args.match, "SELFPLAY_MATCH"), (args.host_capacity, "SELFPLAY_HOST_CSV"),
                        (args.selfplay, "SELFPLAY_BIN"), (args.scaling, "SELFPLAY_SCALING_CSV"),
                        (args.throughput, "SELFPLAY_THROUGHPUT_CSV"), (args.lineage, "SELFPLAY_LINEAGE"),
                        (args.search, "SELFPLAY_SEARCH")):
        if value:
            os.environ[name] = os.path.abspath(value)
    os.environ.setdefault("PYDEVD_DISABLE_FILE_VALIDATION", "1")  # silences a debugger warning on stderr

    notebooks = [os.path.abspath(p) for p in args.notebooks] or sorted(glob.glob(os.path.join(HERE, "*.ipynb")))
    if not notebooks:
        print("run_notebooks: no notebooks found", file=sys.stderr)
        return 2
    missing = [p for p in notebooks if not os.path.isfile(p)]
    if missing:
        print(f"run_notebooks: no such notebook: {', '.join(missing)}", file=sys.stderr)
        return 2

    argv = ensure_kernel()
    print(f"kernel '{KERNEL}': {' '.join(argv[:3])}", flush=True)
    failed = [p for p in notebooks if not run_one(p, args.output_dir, args.timeout)]
    if failed:
        print(f"{len(failed)} of {len(notebooks)} notebooks failed: {', '.join(map(os.path.basename, failed))}")
        return 1
    print(f"all {len(notebooks)} notebooks ran")
    return 0


if __name__ == "__main__":
    sys.exit(main())
