"""`paperscope lsp`: a citation language server over stdio (see tui.lsp.server).

Modules: cursor (where a citation is being typed, which key is under the cursor), library
(the served engine, opened and reloaded in a thread), render (what the popups show),
bibliography (the document's bibliography file), settings, server (the handlers) and
features (their registration with pygls).
"""
