import numpy as np

scores = np.array([95, 82, 67, 58, 74, 88, 43, 100, 71])
grades = np.select(
    [scores >= 90, scores >= 80, scores >= 70, scores >= 60],
    ["A", "B", "C", "D"],
    default="F",
)
print(list(zip(scores.tolist(), grades.tolist(), strict=True)))
print("pass/fail:", np.where(scores >= 60, "pass", "fail").tolist())
print("indices of A:", np.where(grades == "A")[0].tolist())
curved = np.where(scores < 60, scores + 10, np.minimum(scores + 3, 100))
print("curved:", curved.tolist())
m = np.arange(12).reshape(3, 4)
rows, cols = np.nonzero(m % 5 == 0)
print("multiples of 5 at:", list(zip(rows.tolist(), cols.tolist(), strict=True)))
print("argwhere:", np.argwhere(m > 9).tolist())
x = np.array([-2.0, -0.5, 0.5, 2.0])
print("piecewise:", np.piecewise(x, [x < 0, x >= 0], [lambda v: -v, lambda v: v ** 2]).tolist())
print("clip:", np.clip(scores, 50, 90).tolist())
print("extract even:", np.extract(scores % 2 == 0, scores).tolist())
