import numpy as np

text = "the quick brown fox jumps over the lazy dog the fox"
words = np.array(text.split(" "))
uniq, counts = np.unique(words, return_counts=True)
order = np.lexsort((uniq, -counts))
for w, c in zip(uniq[order], counts[order], strict=True):
    print(f"{w:<6}{int(c)}")
vals, first_idx, inverse = np.unique([3, 1, 3, 2, 1, 3], return_index=True, return_inverse=True)
print("values:", vals.tolist(), "first index:", first_idx.tolist(), "inverse:", inverse.tolist())
rows = np.array([[1, 2], [3, 4], [1, 2], [5, 6], [3, 4]])
print("unique rows:", np.unique(rows, axis=0).tolist())
print("unique_values:", np.unique_values(np.array([5, 5, 2, 9, 2])).tolist())
uc = np.unique_counts(np.array(["b", "a", "b", "c", "b"]))
print("unique_counts:", uc.values.tolist(), uc.counts.tolist())
a, b = np.array([1, 2, 3, 4, 5]), np.array([4, 5, 6, 7])
print("intersect:", np.intersect1d(a, b).tolist(), "union:", np.union1d(a, b).tolist())
print("setdiff:", np.setdiff1d(a, b).tolist(), "xor:", np.setxor1d(a, b).tolist())
print("isin:", np.isin(a, b).tolist())
print("bincount:", np.bincount(np.array([0, 1, 1, 3, 3, 3])).tolist())
