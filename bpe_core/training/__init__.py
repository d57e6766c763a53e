"""Training stage: the incremental trainer, its pair index and the timeline over it."""
