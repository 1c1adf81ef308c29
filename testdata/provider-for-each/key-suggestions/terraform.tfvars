regions = [
  "euw1",
  "use1",
]
