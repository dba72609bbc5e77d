"""What the app and the command line need that has no widgets: paths, config, the user's
marks and history, the clipboard and paper data. Nothing here imports Textual.
"""
