"""Work off the GUI thread and around the event loop: workers, throttled calls, encode jobs, settings
storage and the idle garbage collector."""
