import numpy as np

img = np.zeros((8, 8), dtype=np.uint8)
img[2:6, 2:6] = 200
img[3:5, 3:5] = 255
print(img)
print("mean brightness:", img.mean(), "dtype:", img.dtype)
norm = img.astype(np.float64) / 255
print("normalised max:", norm.max())
kernel = np.ones((3, 3)) / 9
padded = np.pad(norm, 1, mode="edge")
blur = np.zeros_like(norm)
for i in range(8):
    for j in range(8):
        blur[i, j] = (padded[i : i + 3, j : j + 3] * kernel).sum()
print(np.round(blur * 255).astype(int))
print("threshold > 128:", int((img > 128).sum()), "pixels")
print(
    "overflow wraps in uint8:",
    (img[3:4, 3] + np.uint8(10)).tolist(),
    "saturating:",
    np.clip(img.astype(int) + 10, 0, 255)[3, 3],
)
flipped = img[:, ::-1]
print("symmetric:", bool(np.array_equal(flipped, img)))
values, counts = np.unique(img, return_counts=True)
print("histogram of values:", dict(zip(values.tolist(), counts.tolist(), strict=True)))
