"""Plan production with linear programming (HiGHS through scipy.optimize)."""
import numpy as np
from scipy.optimize import linprog, milp, LinearConstraint, Bounds

# Maximise profit 20x + 30y subject to machine hours and material limits.
c = [-20, -30]
A_ub = [[1, 2], [3, 2], [1, 0]]
b_ub = [40, 60, 15]
res = linprog(c, A_ub=A_ub, b_ub=b_ub, bounds=[(0, None), (0, None)], method="highs")
print("status:", res.status, res.message.split(":")[0])
print("plan:", np.round(res.x, 6).tolist(), "profit:", round(-res.fun, 6))
print("slack:", np.round(res.slack, 6).tolist())

# The same as an integer program, with an extra constraint.
constraints = LinearConstraint(np.array([[1, 2], [3, 2], [1, 1]]), -np.inf, [40, 60, 25])
integer = milp(c=np.array(c), constraints=constraints, integrality=np.ones(2),
               bounds=Bounds(0, 30))
print("integer plan:", np.round(integer.x).astype(int).tolist(), "profit:", round(-integer.fun))

# A transportation problem: 2 warehouses, 3 stores.
cost = np.array([[4, 6, 9], [5, 3, 8]])
supply = [50, 60]
demand = [30, 40, 35]
A_eq = []
for j in range(3):
    row = np.zeros(6)
    row[[j, 3 + j]] = 1
    A_eq.append(row)
A_ub = [np.r_[np.ones(3), np.zeros(3)], np.r_[np.zeros(3), np.ones(3)]]
t = linprog(cost.ravel(), A_ub=A_ub, b_ub=supply, A_eq=A_eq, b_eq=demand, method="highs")
print("shipments:")
print(np.round(t.x.reshape(2, 3), 6))
print("total cost:", round(t.fun, 6))
