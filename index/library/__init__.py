"""Files -> one clean, deduplicated library of `Paper` records.

`papers` and `source_records` define the values a library is made of (re-exported by
`index.models`, where the rest of paperscope imports them from).

`loaders/` reads each format, `normalize` makes every string clean Unicode, `dedupe` merges
the texts of one paper and links related versions, `ids` names papers, `cache` keeps the
loaded library on disk, and `load` runs the whole pipeline (`load_library`, its steps in
`pipeline`): `parallel` parses and tags a big load on every core, `labelling` gives each
paper its labels once (remembered, tagged ahead during dedupe, or tagged after).
"""
