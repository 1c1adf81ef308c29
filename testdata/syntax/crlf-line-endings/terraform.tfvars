regions = [
  "a",
  "b",
]
