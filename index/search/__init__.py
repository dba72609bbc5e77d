"""Answering a `SearchRequest`: the engine and everything a query passes through.

`engine` orchestrates; `syntax` and `parser` turn the typed text into a Whoosh query;
`prefix_table` and `letters` make the word being typed cheap; `bitsets` and `counting` give
facet counts by mask intersection; `ranking` picks the rows; `highlight` makes snippets;
`spelling` says "did you mean".
"""
