import numpy as np

ss = np.random.SeedSequence(20240601)
children = ss.spawn(3)
gens = [np.random.default_rng(c) for c in children]
for i, g in enumerate(gens):
    print(f"worker {i}:", g.integers(0, 10_000, 4).tolist())
print("entropy:", ss.entropy)
print("state words:", ss.generate_state(4).tolist())
pcg = np.random.Generator(np.random.PCG64(5))
philox = np.random.Generator(np.random.Philox(5))
mt = np.random.Generator(np.random.MT19937(5))
sfc = np.random.Generator(np.random.SFC64(5))
for name, g in [("PCG64", pcg), ("Philox", philox), ("MT19937", mt), ("SFC64", sfc)]:
    print(f"{name:<8}", g.integers(0, 1000, 5).tolist(), round(float(g.random()), 12))
bg = np.random.PCG64(1)
bg2 = bg.jumped()
print(
    "jumped differs:",
    np.random.Generator(bg).integers(0, 10**6) != np.random.Generator(bg2).integers(0, 10**6),
)
