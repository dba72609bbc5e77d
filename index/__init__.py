"""paperscope's headless library: papers, loaders, facets, the Whoosh index, citations.

Nothing in this package imports Textual, pyperclip or platformdirs: it takes paths and
settings as arguments, so it can be tested, benchmarked and scripted without a terminal.
"""

__version__ = "0.1.0"
