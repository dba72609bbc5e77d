"""The app's screens: the main browser, the full-screen detail view and the dialogs."""
