import numpy as np

a = np.arange(12, dtype=np.float64).reshape(3, 4) / 4
b = np.array(["x", "yy", "zzz"])
np.save("a.npy", a)
np.savez("bundle.npz", a=a, b=b, scalar=np.array(3.5))
a2 = np.load("a.npy")
print("npy equal:", np.array_equal(a, a2), a2.dtype, a2.shape)
with np.load("bundle.npz") as z:
    print("npz keys:", sorted(z.files))
    print(z["b"], float(z["scalar"]))
    print(z["a"].sum())
with open("a.npy", "rb") as f:
    magic = f.read(8)
    header_len = int.from_bytes(f.read(2), "little")
    header = f.read(header_len).decode("latin1").strip()
print(magic[:6], header)
