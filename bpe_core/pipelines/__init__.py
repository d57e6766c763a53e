"""Text pipelines: how a model cuts text into pieces (one per family: trained here, Hugging Face)."""
