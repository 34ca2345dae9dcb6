"""Build the Cython core (src_ext/) into extension modules inside the `solver` package.

Set ATOUT_BOUNDSCHECK=1 to compile with Cython's bounds and wraparound checks on
(used to run the differential tests against a checked build), ATOUT_PORTABLE=1 to
leave out the bit instructions of this machine's CPU (a build for other machines).
"""
import glob
import os
import platform

import numpy
from Cython.Build import cythonize
from setuptools import Extension, setup

CHECKED = os.environ.get("ATOUT_BOUNDSCHECK", "0") == "1"

directives = {
    "language_level": 3,
    "boundscheck": CHECKED,
    "wraparound": CHECKED,
    "initializedcheck": CHECKED,
    "cdivision": True,
}

compile_args = ["-O3"] if not CHECKED else ["-O1", "-g"]


# x86-64 bit instructions the cores use when this machine's CPU has them (the cpuinfo
# flag, then the gcc option): popcnt for popcount64 (bitboard.pxd), lzcnt and tzcnt
# for highest_bit/lowest_bit. -mlzcnt only where the CPU has it: on an older CPU the
# same bytes run as bsr, with another result. ATOUT_PORTABLE=1 builds without them,
# for a build meant to run on other machines. Measured: the Belote search 13-16%
# faster (benchmarks/RESULTS.md).
BIT_INSTRUCTIONS = (("popcnt", "-mpopcnt"), ("abm", "-mlzcnt"), ("bmi1", "-mbmi"))


def _cpu_bit_instructions() -> list[str]:
    if os.environ.get("ATOUT_PORTABLE", "0") == "1":
        return []
    if platform.machine().lower() not in ("x86_64", "amd64"):
        return []
    try:
        with open("/proc/cpuinfo") as f:
            flags = next((line.split(":", 1)[1].split() for line in f
                          if line.startswith("flags")), [])
    except OSError:
        return []
    return [option for flag, option in BIT_INSTRUCTIONS if flag in flags]


compile_args += _cpu_bit_instructions()

extensions = [
    Extension(
        f"solver.{name}",
        [f"src_ext/{name}.pyx"],
        include_dirs=["src_ext", numpy.get_include()],
        extra_compile_args=compile_args,
        define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")]
        + ([("ATOUT_CHECKED", "1")] if CHECKED else []),  # cores' own invariant checks
    )
    # every src_ext/<name>.pyx becomes the extension module solver.<name>
    for name in sorted(os.path.splitext(os.path.basename(p))[0]
                       for p in glob.glob("src_ext/*.pyx"))
]

setup(ext_modules=cythonize(extensions, compiler_directives=directives, include_path=["src_ext"]))
