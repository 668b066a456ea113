"""FFT, special functions and image filters with scipy."""
import numpy as np
from scipy import fft, special, ndimage

t = np.arange(64) / 64
sig = np.sin(2 * np.pi * 5 * t) + 0.5 * np.cos(2 * np.pi * 12 * t)
spec = fft.rfft(sig)
freqs = fft.rfftfreq(64, d=1 / 64)
top = freqs[np.argsort(np.abs(spec))[-2:]]
print("dominant frequencies:", sorted(top.tolist()))
print("round trip ok:", bool(np.allclose(fft.irfft(spec, n=64), sig)))
print("dct:", np.round(fft.dct([1.0, 2.0, 3.0, 4.0], norm="ortho"), 6).tolist())
print("next fast length for 1000:", fft.next_fast_len(1000))

print("gamma(5):", special.gamma(5), "factorial(10):", special.factorial(10, exact=True))
print("comb(10, 3):", special.comb(10, 3, exact=True), "perm(5, 2):", special.perm(5, 2, exact=True))
print("erf(0.5):", round(float(special.erf(0.5)), 10), "erfinv(0.5):", round(float(special.erfinv(0.5)), 10))
print("beta(2, 3):", round(float(special.beta(2, 3)), 10))
print("expit(0, 2):", np.round(special.expit([0.0, 2.0]), 8).tolist())
print("logsumexp:", round(float(special.logsumexp([1.0, 2.0, 3.0])), 8))
print("softmax:", np.round(special.softmax([1.0, 2.0, 3.0]), 8).tolist())
print("bessel j0(1):", round(float(special.j0(1.0)), 10))
print("zeta(2):", round(float(special.zeta(2)), 10))

image = np.zeros((10, 10))
image[2:4, 2:5] = 1
image[6:9, 6:8] = 1
labels, n = ndimage.label(image)
print("objects:", n, "sizes:", ndimage.sum_labels(image, labels, range(1, n + 1)).tolist())
print("centres:", [tuple(round(c, 3) for c in cm) for cm in ndimage.center_of_mass(image, labels, [1, 2])])
blurred = ndimage.gaussian_filter(image, sigma=1)
print("blurred max:", round(float(blurred.max()), 6))
print("zoomed shape:", ndimage.zoom(image, 0.5).shape)
print("dilated pixels:", int(ndimage.binary_dilation(image).sum()))
print("median filter sum:", ndimage.median_filter(image, size=3).sum())
