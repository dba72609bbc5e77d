"""The app's screens: the main browser, the full-screen detail view and the dialogs.

`main` lays out the browser and moves between its parts; `searching` runs its searches
(one at a time, the latest shown) and `main_keys` lists its keys. `base` is what every
paper-showing screen shares; the `*_actions` modules are the keys' actions by subject
(paper, layer: tags/status/notes/files, library: saved searches); dialogs are apart.
"""
