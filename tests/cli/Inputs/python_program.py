import os
from collections import defaultdict


class Matrix:
    def __init__(self, rows):
        self.rows = [list(r) for r in rows]

    def transpose(self):
        return Matrix(zip(*self.rows))


def histogram(words):
    counts = defaultdict(int)
    for w in words:
        counts[w] += 1
    return {k: v for k, v in counts.items() if v > 1}


squares = [x * x for x in range(10)]
print(histogram(os.listdir(".")), squares)
