"""What an index holds: the Whoosh fields (`fields`), the text analysis behind them
(`analysis`) and the venue names the venue facet shows (`venues`).
"""
