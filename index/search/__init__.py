"""Answering a `SearchRequest`: the engine and everything a query passes through.

`engine` orchestrates; `syntax` and `parser` turn the typed text into a Whoosh query
(`query_caps` first cuts what would make it slow);
`matching` evaluates it into the bitmask of matching documents, part by part, cached;
`prefixes` makes the word being typed cheap (caps, expansion cache, verification, the
first keystrokes' stored masks); `tables` and `spelling` are the build-time tables beside
an index (the commonest completions of short prefixes; the surface words for "did you
mean" and fuzzy words), and `stored_postings` keeps its long posting lists decoded;
`bitsets` and `counting` give facet counts by mask intersection (`facet_build` computes
the masks, or patches them after an in-place update, and `facet_store` saves them beside
the index);
`ranking` picks the rows; `highlight` makes snippets. For an index opened without its
library, `paper_keys` saves what the user's layer needs of each paper, `key_lookup` finds
the papers a tag or a note belongs to, and `user_layer` turns the layer into masks.
"""
