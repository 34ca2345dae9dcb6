"""Build the Cython core (src_ext/) into extension modules inside the `solver` package.

Set ATOUT_BOUNDSCHECK=1 to compile with Cython's bounds and wraparound checks on
(used to run the differential tests against a checked build), ATOUT_PORTABLE=1 to
leave out the bit instructions of this machine's CPU (a build for other machines).
"""
import glob
import os
import platform

from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

CHECKED = os.environ.get("ATOUT_BOUNDSCHECK", "0") == "1"

directives = {
    "language_level": 3,
    "boundscheck": CHECKED,
    "wraparound": CHECKED,
    "initializedcheck": CHECKED,
    "cdivision": True,
}

# -g0: no debug information in the release build (Python's own CFLAGS carry -g). The
# machine code is the same byte for byte (the .text of tarot_core.o compared), the
# compile ~30% quicker (belote_core.c: 8.7 s CPU against 12.7 s).
compile_args = ["-O3", "-g0"] if not CHECKED else ["-O1", "-g"]
# Not used: profile-guided optimisation (-fprofile-generate, a training run of Tarot
# (a)/(b) searches, -fprofile-use) measured x1.05 on the Tarot search's nodes a second
# (benchmarks/RESULTS.md, seventeenth session): too little for a two-pass build.


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
        include_dirs=["src_ext"],
        extra_compile_args=compile_args,
        define_macros=[("ATOUT_CHECKED", "1")] if CHECKED else [],  # cores' own invariant checks
    )
    # every src_ext/<name>.pyx becomes the extension module solver.<name>
    for name in sorted(os.path.splitext(os.path.basename(p))[0]
                       for p in glob.glob("src_ext/*.pyx"))
]



class ParallelBuildExt(build_ext):
    """build_ext compiling the extensions side by side, one per CPU (unless --parallel
    is given): the five cores took ~60 s one after the other on this 2-core machine."""

    def finalize_options(self):
        super().finalize_options()
        if not self.parallel:
            self.parallel = os.cpu_count() or 1


setup(ext_modules=cythonize(extensions, compiler_directives=directives, include_path=["src_ext"],
                            nthreads=os.cpu_count() or 1),
      cmdclass={"build_ext": ParallelBuildExt})
