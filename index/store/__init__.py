"""The index on disk: where it lives, when it is stale, how it is built and swapped in.

`generations` owns the folder (lock, manifest, staleness, atomic publication of a new
generation); `writer` writes papers into a Whoosh index; `child` runs a large build in a
fresh, small interpreter; `preview` serves an index of a sample while a big first build runs.
"""
