"""Loan amortisation and NPV with vectorised numpy (no numpy_financial)."""
import numpy as np

principal, annual_rate, years = 250_000.0, 0.045, 30
r = annual_rate / 12
n = years * 12
payment = principal * r / (1 - (1 + r) ** -n)
print(f"monthly payment: {payment:.2f}")
k = np.arange(1, n + 1)
balance = principal * (1 + r) ** k - payment * ((1 + r) ** k - 1) / r
interest = np.empty(n)
interest[0] = principal * r
interest[1:] = balance[:-1] * r
principal_paid = payment - interest
print(f"total interest: {interest.sum():.2f}")
print(f"balance after 10 years: {balance[119]:.2f}")
half = int(np.argmax(balance <= principal / 2)) + 1
print("month when half is repaid:", half)
print("first 3 interest payments:", np.round(interest[:3], 2).tolist())
cash = np.array([-1000.0, 300.0, 400.0, 500.0, 200.0])
for rate in (0.05, 0.10, 0.15):
    npv = (cash / (1 + rate) ** np.arange(len(cash))).sum()
    print(f"NPV @ {rate:.0%}: {npv:.4f}")
grid = np.linspace(0, 0.5, 500001)
npvs = (cash[None, :] / (1 + grid[:, None]) ** np.arange(len(cash))).sum(axis=1)
print(f"IRR ~ {grid[np.argmin(np.abs(npvs))]:.5f}")
