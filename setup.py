"""Build the Cython core (src_ext/) into extension modules inside the `solver` package.

Set ATOUT_BOUNDSCHECK=1 to compile with Cython's bounds and wraparound checks on
(used to run the differential tests against a checked build).
"""
import glob
import os

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
