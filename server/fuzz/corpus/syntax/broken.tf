a = {
  b = [1, 2
  c = "unterminated
}
d = 1
