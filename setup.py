"""Build the Cython extension modules of `solver` from the sources in `cext/`.

Each `cext/NAME.pyx` becomes the module `solver._NAME`; its `cext/NAME.pxd` holds the
C structs and the inline nogil helpers other modules cimport by plain name.
"""
import platform

from setuptools import Extension, setup
from Cython.Build import cythonize

MODULES = ["rules", "matgame", "search", "sim", "exhaustive", "features", "gemm"]

COMPILER_DIRECTIVES = {
    "language_level": 3,
    "boundscheck": False,
    "wraparound": False,
    "initializedcheck": False,
    "cdivision": True,
    "nonecheck": False,
}

# the canonical key counts bits in its inner loop: the x86-64 instruction, not a library call
POPCOUNT = ["-mpopcnt"] if platform.machine().lower() in ("x86_64", "amd64") else []

# the exhaustive reference solves each level's games on several threads (OpenMP)
OPENMP = {"exhaustive": ["-fopenmp"]}

extensions = [
    Extension(f"solver._{name}", [f"cext/{name}.pyx"],
              extra_compile_args=["-O3", "-pthread"] + POPCOUNT + OPENMP.get(name, []),
              extra_link_args=["-pthread"] + OPENMP.get(name, []))
    for name in MODULES
]

setup(ext_modules=cythonize(extensions, include_path=["cext"],
                            compiler_directives=COMPILER_DIRECTIVES))
