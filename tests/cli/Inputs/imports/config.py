# A plain Python module of constants, imported as `from . import config`.
BLOCKS = 4
LIMIT = 10.0
