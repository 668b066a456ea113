import numpy as np

a = np.arange(10)
view = a[2:6]
view[:] = -1
print("after writing through a view:", a.tolist())
copy = a[[0, 1, 2]]
copy[:] = 100
print("fancy indexing copies:", a[:3].tolist())
print("shares memory (slice):", np.shares_memory(a, view), "(fancy):", np.shares_memory(a, copy))
b = a.reshape(2, 5)
b[0, 0] = 42
print("reshape is a view:", a[0] == 42)
c = a.copy()
c[0] = 0
print("copy independent:", a[0], c[0])
mask = a > 5
a[mask] *= 2
print("boolean assignment:", a.tolist())
s = np.arange(12).reshape(3, 4)
print(
    "strided slice:", s[::2, 1::2].tolist(), "flags contiguous:", s[::2, 1::2].flags["C_CONTIGUOUS"]
)
ro = np.arange(3)
ro.flags.writeable = False
try:
    ro[0] = 5
except ValueError as exc:
    print("read-only:", exc)
