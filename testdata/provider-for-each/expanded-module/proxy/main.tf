provider "aws" {
  alias    = "x"
  for_each = toset(["a"])
}
