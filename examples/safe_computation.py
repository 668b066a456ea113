# A safe computation: primes below 100 and their sum.
import math

primes = [n for n in range(2, 100) if all(n % d for d in range(2, math.isqrt(n) + 1))]
print(f"{len(primes)} primes below 100, summing to {sum(primes)}")
