"""The network's matrix products (cext/gemm.pxd): weights packed once, products without BLAS.

Why: the same numbers on every processor with AVX2 and FMA (a BLAS library's summation order
depends on the processor and the library's kernel), a speed that does not depend on which
kernel the library picks (on one machine of ours OpenBLAS's choice ran at a quarter of this
kernel's speed), and the bias and max(0, .) that follow a layer's product done while its
outputs are stored, not in passes of their own."""
import numpy as np

from gemm cimport (NIMMT_PANEL, NimmtEpilogue, nimmt_pack, nimmt_gemm, nimmt_dot_rows,
                   nimmt_gemm_supported)


# asked of the processor once, at import: every product checks it
cdef bint SUPPORTED = nimmt_gemm_supported()


def supported() -> bool:
    """Whether this processor runs the kernel (x86-64 with AVX2 and FMA)."""
    return SUPPORTED


def _check_supported():
    if not SUPPORTED:
        raise RuntimeError("this processor has no AVX2 and FMA: use numpy's product")


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


def matmul(a, packed, int k, int n, bias=None, row_bias=None, int group=1,
           bint relu=False) -> np.ndarray:
    """A (M x k, float32) times the packed k x n matrix: M x n float32, then on each output
    + bias[j] (n numbers), + row_bias[i // group][j] (rows of n numbers), max(0, .): the
    float32 operations numpy's `+` and `maximum` would do afterwards. Only where
    `supported()`."""
    _check_supported()
    cdef float[:, ::1] x = np.ascontiguousarray(a, dtype=np.float32)
    cdef float[::1] p = packed
    cdef int m = x.shape[0]
    if x.shape[1] != k or p.shape[0] < ((n + NIMMT_PANEL - 1) // NIMMT_PANEL) * k * NIMMT_PANEL:
        raise ValueError(f"shapes do not match: {x.shape[1]} against {k} x {n}")
    cdef float[::1] b
    cdef float[:, ::1] rb
    cdef NimmtEpilogue e
    e.bias = NULL
    e.row_bias = NULL
    e.group = group
    e.relu = relu
    if bias is not None:
        b = np.ascontiguousarray(bias, dtype=np.float32)
        if b.shape[0] != n:
            raise ValueError(f"a bias of {b.shape[0]} numbers for {n} columns")
        e.bias = &b[0] if n else NULL
    if row_bias is not None:
        rb = np.ascontiguousarray(row_bias, dtype=np.float32)
        if group < 1 or rb.shape[1] != n or rb.shape[0] * group < m:
            raise ValueError(f"row biases {rb.shape[0]} x {rb.shape[1]} for {m} rows in"
                             f" groups of {group} and {n} columns")
        e.row_bias = &rb[0, 0] if m and n else NULL
    out = np.empty((m, n), dtype=np.float32)
    cdef float[:, ::1] c = out
    if m and n:              # k = 0 too: no term is read, each output is the epilogue on 0
        with nogil:
            nimmt_gemm(&x[0, 0], m, k, &p[0], n, &c[0, 0], &e)
    return out


def dot_rows(a, w) -> np.ndarray:
    """A (M x K, float32) times the vector w (K): M numbers, each the chain `matmul` makes
    for a one-column matrix. Only where `supported()`."""
    _check_supported()
    cdef float[:, ::1] x = np.ascontiguousarray(a, dtype=np.float32)
    cdef float[::1] v = np.ascontiguousarray(w, dtype=np.float32)
    cdef int m = x.shape[0], k = x.shape[1]
    if v.shape[0] != k:
        raise ValueError(f"shapes do not match: {k} against {v.shape[0]}")
    out = np.zeros(m, dtype=np.float32)
    cdef float[::1] o = out
    if m and k:
        with nogil:
            nimmt_dot_rows(&x[0, 0], m, k, &v[0], &o[0])
    return out
