"""The app's widgets, one per module; each takes state pushed in and posts messages up."""
