# ruff: noqa
def merge_intervals(intervals):
    """
    >>> merge_intervals([(1, 3), (2, 6), (8, 10), (15, 18), (17, 20)])
    [(1, 6), (8, 10), (15, 20)]
    >>> merge_intervals([])
    []
    >>> merge_intervals([(5, 7), (1, 5)])
    [(1, 7)]
    """
    out = []
    for start, end in sorted(intervals):
        if out and start <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], end))
        else:
            out.append((start, end))
    return out


def free_slots(busy, day_start, day_end):
    """
    >>> free_slots([(9, 10), (12, 13), (9.5, 11)], 8, 17)
    [(8, 9), (11, 12), (13, 17)]
    """
    free, cursor = [], day_start
    for s, e in merge_intervals(busy):
        if s > cursor:
            free.append((cursor, s))
        cursor = max(cursor, e)
    if cursor < day_end:
        free.append((cursor, day_end))
    return free


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
