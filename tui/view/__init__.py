"""Presenters: turning search results into what the facet panel and status line show,
and mapping between typed filters and the facet selection. No widgets here.
"""
