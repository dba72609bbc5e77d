"""Topics and hardware: the vocabulary (`taxonomy`), its compiled rules (`rules`) and the
tagger that gives papers their labels with a reason for each (`tagger`).
"""
