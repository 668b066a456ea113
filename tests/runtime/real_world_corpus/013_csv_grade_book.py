# ruff: noqa
"""Grade book stored as CSV.

>>> save_grades("grades.csv", {"ann": [90, 85, 77], "bob": [60, 72, 58], "cy": [100, 95, 98]})
3
"""
import csv
import statistics


def save_grades(path, grades):
    """Write {student: [scores]} to *path*.

    >>> save_grades("g2.csv", {"ann": [90, 85, 77], "bob": [60, 72, 58], "cy": [100, 95, 98]})
    3
    >>> print(open("g2.csv").read().strip())
    student,hw1,hw2,hw3
    ann,90,85,77
    bob,60,72,58
    cy,100,95,98
    """
    width = max(len(v) for v in grades.values())
    with open(path, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["student"] + [f"hw{i + 1}" for i in range(width)])
        for name in sorted(grades):
            w.writerow([name] + grades[name])
    return len(grades)


def letter(score):
    """
    >>> [letter(s) for s in (95, 85, 75, 65, 10)]
    ['A', 'B', 'C', 'D', 'F']
    """
    for cutoff, grade in ((90, "A"), (80, "B"), (70, "C"), (60, "D")):
        if score >= cutoff:
            return grade
    return "F"


def report(path):
    """
    >>> for line in report("grades.csv"):
    ...     print(line)
    ann   84.00 B
    bob   63.33 D
    cy    97.67 A
    class mean 81.67, stdev 17.29
    """
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    lines, means = [], []
    for row in rows:
        scores = [int(v) for k, v in row.items() if k != "student"]
        mean = statistics.mean(scores)
        means.append(mean)
        lines.append(f"{row['student']:<5} {mean:5.2f} {letter(mean)}")
    lines.append(f"class mean {statistics.mean(means):.2f}, stdev {statistics.stdev(means):.2f}")
    return lines


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
