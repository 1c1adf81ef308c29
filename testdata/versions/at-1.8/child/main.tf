# An empty child.
