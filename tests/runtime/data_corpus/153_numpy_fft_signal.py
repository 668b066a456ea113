"""Find the dominant frequencies of a sampled signal with the FFT."""
import numpy as np

fs = 200.0
t = np.arange(0, 2.0, 1 / fs)
signal = 1.5 * np.sin(2 * np.pi * 7 * t) + 0.6 * np.sin(2 * np.pi * 23 * t + 0.4) + 0.2
spectrum = np.fft.rfft(signal)
freqs = np.fft.rfftfreq(len(signal), d=1 / fs)
amp = np.abs(spectrum) / len(signal) * 2
amp[0] /= 2
top = np.argsort(amp)[::-1][:3]
for k in sorted(top):
    print(f"{freqs[k]:6.2f} Hz  amplitude {amp[k]:.6f}")
print("DC offset:", round(float(amp[0]), 8))
recon = np.fft.irfft(spectrum, n=len(signal))
print("inverse matches:", np.allclose(recon, signal))
print("bins:", len(freqs), "resolution:", freqs[1] - freqs[0], "Hz")
phase23 = np.angle(spectrum[np.argmin(np.abs(freqs - 23))])
print("phase at 23 Hz (rad):", round(float(phase23 + np.pi / 2), 6))
