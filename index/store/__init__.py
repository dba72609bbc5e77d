"""The index on disk: where it lives, when it is stale, how it is built and swapped in.

`generations` opens, builds and updates the index and publishes each new generation
atomically; `manifest` says what an index depends on (staleness) and where it lives;
`locks` keeps one builder at a time and every generation in use from being deleted;
`integrity` checks a generation's files against their recorded checksums; `writer`
writes papers into a Whoosh index; `child` runs a large build in a fresh, small
interpreter (`leaving`: left to finish alone when the app quits); `preview` serves an index of a sample while a big first build runs.
"""
