# ruff: noqa
import unittest

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


def winner(board):
    for a, b, c in LINES:
        if board[a] != " " and board[a] == board[b] == board[c]:
            return board[a]
    return "draw" if " " not in board else None


def minimax(board, player):
    w = winner(board)
    if w:
        return {"X": 1, "O": -1, "draw": 0}[w], None
    best = (-2, None) if player == "X" else (2, None)
    for i in range(9):
        if board[i] == " ":
            nb = board[:i] + player + board[i + 1:]
            score, _ = minimax(nb, "O" if player == "X" else "X")
            if (player == "X" and score > best[0]) or (player == "O" and score < best[0]):
                best = (score, i)
    return best


class TicTacToeTest(unittest.TestCase):
    def test_winner(self):
        self.assertEqual(winner("XXXOO    "), "X")
        self.assertEqual(winner("XOXXOOOXX"), "draw")
        self.assertIsNone(winner("X        "))

    def test_blocks_and_wins(self):
        self.assertEqual(minimax("XX OO    ", "X")[1], 2)
        self.assertEqual(minimax("OO X  X  ", "X")[1], 2)


if __name__ == "__main__":
    print(minimax("X O  O  X", "X"))
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
