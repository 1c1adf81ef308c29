name = "x"
list = [
  1,
2]
