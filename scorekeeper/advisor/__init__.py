"""Optimal solitaire play: exact expected final scores by backward induction (numpy).

The only part of scorekeeper that imports numpy.
"""
