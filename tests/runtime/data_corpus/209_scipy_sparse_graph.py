"""Sparse matrices and graphs: build, multiply, solve, shortest paths, components."""
import numpy as np
from scipy import sparse
from scipy.sparse import csgraph
from scipy.sparse.linalg import spsolve, eigsh, cg

rows = [0, 0, 1, 2, 2, 3, 4]
cols = [1, 2, 2, 3, 4, 4, 0]
weights = [4.0, 1.0, 2.0, 5.0, 8.0, 3.0, 7.0]
G = sparse.csr_array((weights, (rows, cols)), shape=(5, 5))
print("nnz:", G.nnz, "format:", G.format)
print("dense:")
print(G.toarray())
dist, pred = csgraph.shortest_path(G, directed=True, return_predecessors=True)
print("shortest from 0:", dist[0].tolist())
print("predecessors from 0:", pred[0].tolist())
n, labels = csgraph.connected_components(sparse.csr_array(([1, 1], ([0, 3], [1, 4])), shape=(5, 5)))
print("components:", n, labels.tolist())
mst = csgraph.minimum_spanning_tree(G)
print("spanning tree weight:", mst.sum())
print("bfs order:", csgraph.breadth_first_order(G, 0, return_predecessors=False).tolist())

n = 50
lap = sparse.diags([-1.0, 2.0, -1.0], [-1, 0, 1], shape=(n, n), format="csc")
rhs = np.ones(n)
x = spsolve(lap, rhs)
print("spsolve max:", round(float(x.max()), 6))
xc, info = cg(lap, rhs, rtol=1e-10, maxiter=1000)
print("cg info:", info, "agrees:", bool(np.allclose(x, xc, atol=1e-6)))
vals = eigsh(lap, k=3, which="SM", return_eigenvectors=False)
print("smallest eigenvalues:", np.round(np.sort(vals), 6).tolist())
M = sparse.random_array((6, 6), density=0.3, random_state=np.random.default_rng(1))
print("product nnz <= 36:", (M @ M.T).nnz <= 36, "symmetric:", abs(M @ M.T - (M @ M.T).T).max() < 1e-12)
print("kron shape:", sparse.kron(sparse.eye(2), sparse.eye(3)).shape)
