"""The base layer every stage stands on: units and how they are shown, the merge routine."""
