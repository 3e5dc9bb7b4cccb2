"""Pictures of the kit's data: every function takes data and returns a figure.

Plots take data, not games (docs/architecture.md, layers): a solver or a match computes
the numbers, a function here draws them. :mod:`gopskit.viz.svg` draws small
SVG charts for the boards without any plotting library; the other modules
use matplotlib, imported only when a plot is drawn.
"""
