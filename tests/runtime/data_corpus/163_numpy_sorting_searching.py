import numpy as np

a = np.array([42, 7, 19, 7, 88, 3, 56, 19])
print("sorted:", np.sort(a).tolist(), "desc:", np.sort(a)[::-1].tolist())
order = np.argsort(a, kind="stable")
print("stable argsort:", order.tolist())
print("partition k=3 (first 3 smallest, any order):", sorted(np.partition(a, 3)[:3].tolist()))
print("top 3 values:", np.sort(a)[-3:][::-1].tolist())
names = np.array(["cid", "ann", "bob", "ann"])
ages = np.array([30, 25, 41, 22])
idx = np.lexsort((ages, names))
print("lexsort by name then age:", list(zip(names[idx].tolist(), ages[idx].tolist(), strict=True)))
s = np.array([1, 3, 5, 7, 9])
print(
    "searchsorted left:",
    np.searchsorted(s, [0, 3, 6, 10]).tolist(),
    "right:",
    np.searchsorted(s, [3, 7], side="right").tolist(),
)
rec = np.array([(b"x", 3.0), (b"y", 1.0), (b"z", 2.0)], dtype=[("k", "S1"), ("v", "f8")])
print("structured sort:", np.sort(rec, order="v")["k"].tolist())
m = np.array([[3, 1, 2], [9, 7, 8]])
print("sort rows:", np.sort(m, axis=1).tolist(), "argmax per row:", m.argmax(axis=1).tolist())
print(
    "max/argmax:",
    int(a.max()),
    int(a.argmax()),
    "nanargmin:",
    int(np.nanargmin([np.nan, 4.0, 1.0])),
)
