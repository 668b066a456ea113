"""Signal processing: filtering, peaks, smoothing and spectra."""
import numpy as np
from scipy import signal

fs = 200.0
t = np.arange(0, 2, 1 / fs)
rng = np.random.default_rng(11)
clean = np.sin(2 * np.pi * 3 * t)
noisy = clean + 0.4 * np.sin(2 * np.pi * 40 * t) + rng.normal(scale=0.05, size=t.size)

b, a = signal.butter(4, 10, btype="low", fs=fs)
filtered = signal.filtfilt(b, a, noisy)
print("butter b:", np.round(b, 8).tolist())
print("filtered rms error < 0.05:", bool(np.sqrt(np.mean((filtered - clean) ** 2)) < 0.05))
sos = signal.butter(4, [30, 50], btype="bandpass", fs=fs, output="sos")
band = signal.sosfiltfilt(sos, noisy)
print("band-passed amplitude ~0.4:", round(float(np.max(np.abs(band[100:-100]))), 1))

peaks, props = signal.find_peaks(clean, height=0.5, distance=20)
print("peaks at t =", np.round(t[peaks], 3).tolist())
smoothed = signal.savgol_filter(noisy, window_length=21, polyorder=3)
print("savgol first values:", np.round(smoothed[:3], 3).tolist())
f, pxx = signal.welch(noisy, fs=fs, nperseg=128)
print("welch peak frequencies:", sorted(np.round(f[np.argsort(pxx)[-2:]], 2).tolist()))
print("medfilt:", signal.medfilt(np.array([1.0, 9, 2, 3, 8, 4, 5]), 3).tolist())
print("convolve:", signal.convolve([1, 2, 3], [0, 1, 0.5]).tolist())
w, h = signal.freqz(b, a, worN=[0, 5, 10, 20], fs=fs)
print("gain at 0/5/10/20 Hz:", np.round(np.abs(h), 4).tolist())
print("detrend max:", round(float(np.max(np.abs(signal.detrend(np.arange(10.0) * 3 + 1)))), 8))
