"""Integer widths: the cases that bite when code assumes 64-bit integers."""

import numpy as np

a = np.array([100_000, 100_000])
print("default int array dtype:", a.dtype)
print("product:", np.prod(a), "sum:", a.sum())
print("arange dtype:", np.arange(5).dtype, "zeros(int):", np.zeros(2, dtype=int).dtype)
print("python int -> array:", np.array(2**40).dtype, np.array(2**40))
big = np.arange(3) * 2**31
print("arange * 2**31:", big.tolist())
print("int32 wraps:", (np.array([2**31 - 1], dtype=np.int32) + np.int32(1)).tolist())
print(
    "bool sum dtype:",
    np.ones(4, dtype=bool).sum().dtype,
    "int8 cumsum dtype:",
    np.ones(3, np.int8).cumsum().dtype,
)
print("iinfo int64:", np.iinfo(np.int64).max, "int32:", np.iinfo(np.int32).max)
print("float64 eps:", np.finfo(np.float64).eps, "float32 eps:", np.finfo(np.float32).eps)
print(
    "astype(int) of floats:",
    np.array([1.7, -1.7, 2.5]).astype(int).tolist(),
    np.array([1.5]).astype(int).dtype,
)
print("np.int_ is int64:", np.dtype(np.int_) == np.dtype(np.int64))
print(
    "uint8 arithmetic:", (np.array([250], dtype=np.uint8) + np.array([10], dtype=np.uint8)).tolist()
)
print("timestamp ns as int:", np.datetime64("2024-01-01T00:00:00", "ns").astype(np.int64))
