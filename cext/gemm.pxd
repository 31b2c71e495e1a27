# The network's matrix products on the CPU's vector units (solver/learn/model.py uses them).
#
# Invariants:
# - A weight matrix B (K x N, float32) is used packed: panels of 16 columns, panel p holding
#   B[k][16p + c] at packed[(p * K + k) * 16 + c], zeros past column N. It is packed once,
#   when the weights are loaded.
# - C = A B (A: M x K float32, rows contiguous; C: M x N), then an epilogue on each output
#   as it is stored (a bias, a bias per group of rows, max(0, .)). Each product is one chain
#   of fused multiply-adds over k = 0, 1, ..., K - 1 from 0 (nimmt_dot_rows' one column
#   too): the same numbers whatever the blocking, the row or panel an element falls in, and
#   on every processor with FMA (one rounding a step, no reassociation). A BLAS library sums
#   in an order of its own that depends on the processor; this is why the results do not.
# - Only x86-64 with AVX2 and FMA runs it (`nimmt_gemm_supported`); elsewhere the caller uses
#   numpy's product. No allocation, no Python object, no GIL: the caller owns every buffer.
# - The blocks: 6 rows of A (in the first-level cache) against each 16-column panel in turn
#   (the packed matrix in the second level): 12 vector accumulators, two loads and one
#   broadcast a step, within the 16 vector registers.

cdef extern from *:
    """
    #include <stddef.h>
    #include <string.h>
    #if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
    #include <immintrin.h>
    #define NIMMT_GEMM_X86 1
    #endif

    #define NIMMT_PANEL 16
    #define NIMMT_ROWS 6          /* rows a block: 12 accumulators, 2 loads, 1 broadcast */

    static void nimmt_pack(const float *b, int k, int n, float *packed) {
        int panels = (n + NIMMT_PANEL - 1) / NIMMT_PANEL;
        memset(packed, 0, sizeof(float) * (size_t)panels * k * NIMMT_PANEL);
        for (int t = 0; t < k; t++)
            for (int j = 0; j < n; j++)
                packed[((size_t)(j / NIMMT_PANEL) * k + t) * NIMMT_PANEL + j % NIMMT_PANEL] =
                    b[(size_t)t * n + j];
    }

    /* What is done to each output as it is stored, in this order (each step the float32
       operation numpy would do on the stored product): + bias[j], + row_bias[i / group][j],
       max(0, .) with numpy's maximum's NaN and signed zero. NULL: no such step. */
    typedef struct {
        const float *bias;
        const float *row_bias;
        int group;
        int relu;
    } NimmtEpilogue;

    #ifdef NIMMT_GEMM_X86
    /* `rows` (1..NIMMT_ROWS) rows of A from row `i` against one panel (columns `j` on, only
       `width` of them real), into C. */
    __attribute__((target("avx2,fma")))
    static inline void nimmt_block(const float *a, int rows, int k, const float *panel,
                                   float *c, int n, int i, int j, int width,
                                   const NimmtEpilogue *e) {
        __m256 acc[NIMMT_ROWS][2];
        if (rows == NIMMT_ROWS) {           /* the common case: every sum in a register */
            const float *a0 = a, *a1 = a0 + k, *a2 = a1 + k, *a3 = a2 + k, *a4 = a3 + k,
                        *a5 = a4 + k;
            __m256 c00 = _mm256_setzero_ps(), c01 = c00, c10 = c00, c11 = c00, c20 = c00,
                   c21 = c00, c30 = c00, c31 = c00, c40 = c00, c41 = c00, c50 = c00, c51 = c00;
            for (int t = 0; t < k; t++) {
                __m256 b0 = _mm256_loadu_ps(panel + t * NIMMT_PANEL);
                __m256 b1 = _mm256_loadu_ps(panel + t * NIMMT_PANEL + 8);
                __m256 x;
                /* one row's step: its element of column t times the panel's row t */
                #define NIMMT_STEP(r) x = _mm256_broadcast_ss(a##r + t); \
                    c##r##0 = _mm256_fmadd_ps(x, b0, c##r##0); \
                    c##r##1 = _mm256_fmadd_ps(x, b1, c##r##1);
                NIMMT_STEP(0) NIMMT_STEP(1) NIMMT_STEP(2) NIMMT_STEP(3) NIMMT_STEP(4) NIMMT_STEP(5)
                #undef NIMMT_STEP
            }
            acc[0][0] = c00; acc[0][1] = c01; acc[1][0] = c10; acc[1][1] = c11;
            acc[2][0] = c20; acc[2][1] = c21; acc[3][0] = c30; acc[3][1] = c31;
            acc[4][0] = c40; acc[4][1] = c41; acc[5][0] = c50; acc[5][1] = c51;
        } else {
            for (int r = 0; r < rows; r++) {
                const float *ar = a + (size_t)r * k;
                __m256 c0 = _mm256_setzero_ps(), c1 = c0;
                for (int t = 0; t < k; t++) {
                    __m256 x = _mm256_broadcast_ss(ar + t);
                    c0 = _mm256_fmadd_ps(x, _mm256_loadu_ps(panel + t * NIMMT_PANEL), c0);
                    c1 = _mm256_fmadd_ps(x, _mm256_loadu_ps(panel + t * NIMMT_PANEL + 8), c1);
                }
                acc[r][0] = c0;
                acc[r][1] = c1;
            }
        }
        __m256 zero = _mm256_setzero_ps();
        for (int r = 0; r < rows; r++) {
            float *cr = c + (size_t)(i + r) * n + j;
            const float *rb = e->row_bias ? e->row_bias + (size_t)((i + r) / e->group) * n + j
                                          : NULL;
            if (width == NIMMT_PANEL) {
                __m256 v0 = acc[r][0], v1 = acc[r][1];
                if (e->bias) {
                    v0 = _mm256_add_ps(v0, _mm256_loadu_ps(e->bias + j));
                    v1 = _mm256_add_ps(v1, _mm256_loadu_ps(e->bias + j + 8));
                }
                if (rb) {
                    v0 = _mm256_add_ps(v0, _mm256_loadu_ps(rb));
                    v1 = _mm256_add_ps(v1, _mm256_loadu_ps(rb + 8));
                }
                if (e->relu) {          /* max(0, v): v itself when v is NaN or -0 */
                    v0 = _mm256_max_ps(zero, v0);
                    v1 = _mm256_max_ps(zero, v1);
                }
                _mm256_storeu_ps(cr, v0);
                _mm256_storeu_ps(cr + 8, v1);
            } else {
                float part[NIMMT_PANEL];
                _mm256_storeu_ps(part, acc[r][0]);
                _mm256_storeu_ps(part + 8, acc[r][1]);
                for (int q = 0; q < width; q++) {
                    float v = part[q];
                    if (e->bias) v += e->bias[j + q];
                    if (rb) v += rb[q];
                    if (e->relu && !(v >= 0.0f || v != v)) v = 0.0f;
                    cr[q] = v;
                }
            }
        }
    }

    /* C (m x n) = A (m x k) B, B packed by nimmt_pack. A block of rows stays in the first
       cache while every panel passes under it. */
    __attribute__((target("avx2,fma")))
    static void nimmt_gemm(const float *a, int m, int k, const float *packed, int n, float *c,
                           const NimmtEpilogue *e) {
        int panels = (n + NIMMT_PANEL - 1) / NIMMT_PANEL;
        for (int i = 0; i < m; i += NIMMT_ROWS) {
            int rows = m - i < NIMMT_ROWS ? m - i : NIMMT_ROWS;
            for (int p = 0; p < panels; p++) {
                int width = n - p * NIMMT_PANEL < NIMMT_PANEL ? n - p * NIMMT_PANEL : NIMMT_PANEL;
                nimmt_block(a + (size_t)i * k, rows, k, packed + (size_t)p * k * NIMMT_PANEL,
                            c, n, i, p * NIMMT_PANEL, width, e);
            }
        }
    }

    /* out[i] = A[i] . w (one output column): the same chain as nimmt_gemm's, 8 rows at a
       time so that 8 chains are in flight, not one. */
    __attribute__((target("avx2,fma")))
    static void nimmt_dot_rows(const float *a, int m, int k, const float *w, float *out) {
        int i = 0;
        for (; i + 8 <= m; i += 8) {
            float s[8] = {0, 0, 0, 0, 0, 0, 0, 0};
            for (int t = 0; t < k; t++)
                for (int r = 0; r < 8; r++)
                    s[r] = __builtin_fmaf(a[(size_t)(i + r) * k + t], w[t], s[r]);
            for (int r = 0; r < 8; r++)
                out[i + r] = s[r];
        }
        for (; i < m; i++) {
            float s = 0;
            for (int t = 0; t < k; t++)
                s = __builtin_fmaf(a[(size_t)i * k + t], w[t], s);
            out[i] = s;
        }
    }

    static int nimmt_gemm_supported(void) {
        __builtin_cpu_init();
        return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    }
    #else                                 /* never called: nimmt_gemm_supported() is 0 */
    static void nimmt_gemm(const float *a, int m, int k, const float *packed, int n, float *c,
                           const NimmtEpilogue *e) {
        (void)a; (void)m; (void)k; (void)packed; (void)n; (void)c; (void)e;
    }
    static void nimmt_dot_rows(const float *a, int m, int k, const float *w, float *out) {
        (void)a; (void)m; (void)k; (void)w; (void)out;
    }
    static int nimmt_gemm_supported(void) { return 0; }
    #endif
    """
    enum: NIMMT_PANEL
    ctypedef struct NimmtEpilogue:
        const float *bias
        const float *row_bias
        int group
        int relu
    void nimmt_pack(const float *b, int k, int n, float *packed) noexcept nogil
    void nimmt_gemm(const float *a, int m, int k, const float *packed, int n,
                    float *c, const NimmtEpilogue *e) noexcept nogil
    void nimmt_dot_rows(const float *a, int m, int k, const float *w,
                        float *out) noexcept nogil
    int nimmt_gemm_supported() noexcept nogil
