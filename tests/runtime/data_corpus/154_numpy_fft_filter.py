import numpy as np

rng = np.random.default_rng(77)
n = 256
t = np.linspace(0, 1, n, endpoint=False)
clean = np.sin(2 * np.pi * 3 * t)
noisy = clean + 0.4 * rng.standard_normal(n)
F = np.fft.fft(noisy)
freqs = np.fft.fftfreq(n, d=1 / n)
F_filtered = np.where(np.abs(freqs) <= 5, F, 0)
filtered = np.fft.ifft(F_filtered).real
rmse_noisy = np.sqrt(np.mean((noisy - clean) ** 2))
rmse_filtered = np.sqrt(np.mean((filtered - clean) ** 2))
print(f"rmse noisy {rmse_noisy:.5f} -> filtered {rmse_filtered:.5f}")
print("kept bins:", int(np.count_nonzero(F_filtered)))
print("fftshift of small freqs:", np.fft.fftshift(np.fft.fftfreq(8, d=0.125)).tolist())
x = np.array([1.0, 2.0, 0.0, -1.0])
X = np.fft.fft(x)
print("fft of [1,2,0,-1]:", [(round(z.real, 10) + 0.0, round(z.imag, 10) + 0.0) for z in X])
print(
    "parseval:",
    round(float(np.sum(np.abs(x) ** 2)), 10),
    round(float(np.sum(np.abs(X) ** 2) / len(x)), 10),
)
conv = np.fft.ifft(np.fft.fft([1, 2, 3, 0, 0]) * np.fft.fft([0, 1, 0.5, 0, 0])).real
print(
    "circular convolution:",
    np.round(conv, 10) + 0.0,
    "np.convolve:",
    np.convolve([1, 2, 3], [0, 1, 0.5]),
)
