"""The network's product kernel (cext/gemm.pxd) and the network on it."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from solver import _gemm
from solver.learn import model
from solver.learn.model import PolicyNet, load_cached

pytestmark = pytest.mark.skipif(not _gemm.supported(), reason="no AVX2 and FMA here")


@pytest.mark.parametrize("m, k, n", [(1, 1, 1), (5, 3, 20), (6, 17, 16), (13, 256, 256),
                                     (100, 539, 128), (7, 128, 1), (0, 4, 16), (3, 0, 16)])
def test_the_product_is_numpy_s_to_rounding(m, k, n):
    rng = np.random.default_rng(m * 1000 + k + n)
    a = rng.standard_normal((m, k)).astype(np.float32)
    b = rng.standard_normal((k, n)).astype(np.float32)
    got = _gemm.matmul(a, _gemm.pack(b), k, n)
    assert got.shape == (m, n) and got.dtype == np.float32
    exact = a.astype(np.float64) @ b.astype(np.float64)
    assert np.allclose(got, exact, rtol=1e-5, atol=1e-4 * max(1, k) ** 0.5)


def test_a_row_s_numbers_do_not_depend_on_the_rest_of_the_batch():
    """Each element is one chain of fused multiply-adds in a fixed order: the same bits
    whatever rows come with it (a full block of six, a short block) or where it lies."""
    rng = np.random.default_rng(1)
    a = rng.standard_normal((29, 256)).astype(np.float32)
    b = rng.standard_normal((256, 40)).astype(np.float32)
    packed = _gemm.pack(b)
    whole = _gemm.matmul(a, packed, 256, 40)
    for rows in ([0], [5, 6, 7], list(range(3, 29)), [28, 0, 13]):
        assert np.array_equal(_gemm.matmul(a[rows], packed, 256, 40), whole[rows])


@pytest.mark.parametrize("n", [16, 40, 256])
def test_the_epilogue_is_numpy_s_operations_to_the_bit(n):
    """A bias, a bias per group of rows and max(0, .) done as the outputs are stored give
    the numbers numpy's `+` and `maximum` give on the stored product."""
    rng = np.random.default_rng(n)
    a = rng.standard_normal((31, 64)).astype(np.float32)
    b = rng.standard_normal((64, n)).astype(np.float32)
    bias = rng.standard_normal(n).astype(np.float32)
    row_bias = rng.standard_normal((4, n)).astype(np.float32)     # groups of 8 rows
    packed = _gemm.pack(b)
    plain = _gemm.matmul(a, packed, 64, n)
    expected = plain + bias
    expected += np.repeat(row_bias, 8, axis=0)[:31]
    expected = np.maximum(expected, 0.0)
    got = _gemm.matmul(a, packed, 64, n, bias, row_bias, 8, True)
    assert np.array_equal(got, expected)
    assert np.array_equal(_gemm.matmul(a, packed, 64, n, relu=True), np.maximum(plain, 0.0))


def test_a_one_column_product_is_the_same_chain():
    rng = np.random.default_rng(3)
    a = rng.standard_normal((21, 100)).astype(np.float32)
    w = rng.standard_normal((100, 1)).astype(np.float32)
    assert np.array_equal(_gemm.dot_rows(a, w[:, 0]), _gemm.matmul(a, _gemm.pack(w), 100, 1)[:, 0])


def test_shapes_that_do_not_match_are_refused():
    packed = _gemm.pack(np.ones((4, 16), dtype=np.float32))
    with pytest.raises(ValueError):
        _gemm.matmul(np.ones((2, 5), dtype=np.float32), packed, 5, 16)
    with pytest.raises(ValueError):
        _gemm.matmul(np.ones((2, 4), dtype=np.float32), packed, 4, 16, bias=np.ones(15))
    with pytest.raises(ValueError):
        _gemm.matmul(np.ones((9, 4), dtype=np.float32), packed, 4, 16,
                     row_bias=np.ones((2, 16)), group=4)          # 8 rows of biases for 9
    with pytest.raises(ValueError):
        _gemm.dot_rows(np.ones((2, 4), dtype=np.float32), np.ones(5))


def test_the_network_on_the_kernel_is_the_network_on_numpy(monkeypatch):
    net = load_cached("net-v3.npz")
    plain = net.on_numpy()
    assert not plain._packed and net._packed
    monkeypatch.setattr(model, "KERNEL", False)
    assert not PolicyNet(net.weights, net.meta)._packed
    rng = np.random.default_rng(2)
    x = model.Encoded(rng.random((50, 10, model.CARD_FEATURES), dtype=np.float32),
                      np.arange(10)[None, :] < rng.integers(1, 11, size=50)[:, None],
                      rng.random((50, model.TABLE_FEATURES), dtype=np.float32))
    (logits, values), (logits2, values2) = net.forward(x), plain.forward(x)
    assert np.allclose(logits[x.mask], logits2[x.mask], atol=1e-4)
    assert np.allclose(values, values2, atol=1e-4)
    assert np.array_equal(logits.argmax(axis=1), logits2.argmax(axis=1))


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 20), st.integers(0, 40), st.integers(1, 50), st.integers(1, 7),
       st.booleans(), st.booleans(), st.booleans(), st.integers(0, 2 ** 32 - 1))
def test_any_shape_and_epilogue(m, k, n, group, with_bias, with_rows, relu, seed):
    rng = np.random.default_rng(seed)
    a = rng.standard_normal((m, k)).astype(np.float32)
    b = rng.standard_normal((k, n)).astype(np.float32)
    bias = rng.standard_normal(n).astype(np.float32) if with_bias else None
    rows = (rng.standard_normal(((m + group - 1) // group, n)).astype(np.float32)
            if with_rows else None)
    got = _gemm.matmul(a, _gemm.pack(b), k, n, bias, rows, group, relu)
    expected = _gemm.matmul(a, _gemm.pack(b), k, n)
    if bias is not None:
        expected += bias
    if rows is not None:
        expected += np.repeat(rows, group, axis=0)[:m]
    if relu:
        expected = np.maximum(expected, 0.0)
    assert np.array_equal(got, expected)
    assert np.allclose(_gemm.matmul(a, _gemm.pack(b), k, n),
                       a.astype(np.float64) @ b.astype(np.float64), atol=1e-4)
