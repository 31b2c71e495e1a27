"""The network's matrix products (cext/gemm.pxd): weights packed once, products without BLAS.

Why: the same numbers on every processor with AVX2 and FMA (a BLAS library's summation order
depends on the processor and the library's kernel), and a speed that does not depend on
which kernel the library picks (on one machine of ours OpenBLAS's choice ran at a quarter of
this kernel's speed)."""
import numpy as np

from gemm cimport NIMMT_PANEL, nimmt_pack, nimmt_gemm, nimmt_gemm_supported, nimmt_cpu_avx512



def supported() -> bool:
    """Whether this processor runs the kernel (x86-64 with AVX2 and FMA)."""
    return bool(nimmt_gemm_supported())


def has_avx512() -> bool:
    """Whether this processor has AVX-512 (where BLAS libraries have wider kernels)."""
    return bool(nimmt_cpu_avx512())


def pack(weights) -> np.ndarray:
    """A K x N float32 matrix in panels of 16 columns (the kernel's layout)."""
    cdef float[:, ::1] b = np.ascontiguousarray(weights, dtype=np.float32)
    cdef int k = b.shape[0], n = b.shape[1]
    panels = (n + NIMMT_PANEL - 1) // NIMMT_PANEL
    out = np.empty(max(1, panels * k * NIMMT_PANEL), dtype=np.float32)
    cdef float[::1] packed = out
    if k and n:
        with nogil:
            nimmt_pack(&b[0, 0], k, n, &packed[0])
    return out


def matmul(a, packed, int k, int n) -> np.ndarray:
    """A (M x k, float32) times the packed k x n matrix: M x n float32. Only where
    `supported()`."""
    if not nimmt_gemm_supported():
        raise RuntimeError("this processor has no AVX2 and FMA: use numpy's product")
    cdef float[:, ::1] x = np.ascontiguousarray(a, dtype=np.float32)
    cdef float[::1] p = packed
    if x.shape[1] != k or p.shape[0] < ((n + NIMMT_PANEL - 1) // NIMMT_PANEL) * k * NIMMT_PANEL:
        raise ValueError(f"shapes do not match: {x.shape[1]} against {k} x {n}")
    cdef int m = x.shape[0]
    out = np.empty((m, n), dtype=np.float32)
    cdef float[:, ::1] c = out
    if m and n:
        if k == 0:
            out[:] = 0
        else:
            with nogil:
                nimmt_gemm(&x[0, 0], m, k, &p[0], n, &c[0, 0])
    return out
