"""paperscope's terminal front end: the Textual app and the command line.

It calls `index` for everything that is not presentation, key handling or the user's
files (config, marks, history, clipboard).
"""
