import numpy as np

# A Markov transition matrix: find its stationary distribution
P = np.array(
    [
        [0.90, 0.075, 0.025],
        [0.15, 0.80, 0.05],
        [0.25, 0.25, 0.50],
    ]
)
vals, vecs = np.linalg.eig(P.T)
order = np.argsort(-vals.real)
vals = vals[order]
print("eigenvalues:", np.round(vals.real, 8) + 0.0)
stationary = vecs[:, order[0]].real
stationary = stationary / stationary.sum()
print("stationary distribution:", np.round(stationary, 8))
print("check pi P = pi:", np.allclose(stationary @ P, stationary))
power = np.linalg.matrix_power(P, 50)
print("P^50 first row:", np.round(power[0], 8))
R = np.array([[0.0, -1.0], [1.0, 0.0]])
rv = np.linalg.eigvals(R)
print(
    "rotation eigenvalues:", sorted((round(z.real, 10) + 0.0, round(z.imag, 10) + 0.0) for z in rv)
)
