import numpy as np

img = np.zeros((16, 16))
img[4:12, 6:10] = 1.0
F = np.fft.fft2(img)
mag = np.abs(np.fft.fftshift(F))
print("DC component:", round(float(np.abs(F[0, 0])), 8), "(= sum of pixels:", img.sum(), ")")
print("spectrum row through centre (rounded):")
print(np.round(mag[8], 4))
back = np.fft.ifft2(F).real
print("round trip ok:", np.allclose(back, img))

rng = np.random.default_rng(21)
n = 512
t = np.arange(n)
x = np.sin(2 * np.pi * t / 32) + 0.5 * rng.standard_normal(n)
x = x - x.mean()
f = np.fft.rfft(x, n=2 * n)
acf = np.fft.irfft(f * np.conj(f))[:n]
acf /= acf[0]
direct = np.array([np.dot(x[: n - k], x[k:]) for k in range(40)]) / np.dot(x, x)
print("fft acf == direct acf:", np.allclose(acf[:40], direct))
lag = int(np.argmax(acf[10:60])) + 10
print("strongest lag between 10 and 60:", lag)
print("acf at lags 0, 16, 32:", np.round(acf[[0, 16, 32]], 4).tolist())
