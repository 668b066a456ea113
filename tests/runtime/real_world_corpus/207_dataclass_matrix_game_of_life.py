# ruff: noqa
from dataclasses import dataclass


@dataclass(frozen=True)
class Board:
    """Conway's Game of Life on a set of live cells.

    >>> b = Board.parse("-#-\\n-#-\\n-#-")
    >>> print(b.step().render(3, 3))
    ---
    ###
    ---
    >>> b.step().step() == b
    True
    >>> glider = Board.parse("-#--\\n--#-\\n###-\\n----")
    >>> print(glider.step().step().step().step().render(4, 4))
    ----
    --#-
    ---#
    -###
    """

    live: frozenset

    @classmethod
    def parse(cls, text):
        return cls(frozenset((r, c) for r, line in enumerate(text.splitlines()) for c, ch in enumerate(line) if ch == "#"))

    def step(self):
        counts = {}
        for r, c in self.live:
            for dr in (-1, 0, 1):
                for dc in (-1, 0, 1):
                    if dr or dc:
                        counts[(r + dr, c + dc)] = counts.get((r + dr, c + dc), 0) + 1
        return Board(frozenset(cell for cell, n in counts.items() if n == 3 or (n == 2 and cell in self.live)))

    def render(self, rows, cols):
        return "\n".join("".join("#" if (r, c) in self.live else "-" for c in range(cols)) for r in range(rows))


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
