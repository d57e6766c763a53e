"""The session: the app's one door to the core. Commands go in, signals that say what happened come out."""
