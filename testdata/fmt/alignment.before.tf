resource "aws_instance" "web" {
  ami           = "ami-1"    # the image
  instance_type = "t3.micro" // size
  tags = {
    Name       = "web"
    LongerName = "x"

    a = 1
  }
  count = length(var.x) - 1
}

locals {
  neg    = -1
  sub    = 3 - 1
  idx    = var.list[0]
  cond   = !var.x ? -var.y : var.z * 2
  list   = [for x in [1, 2] : x if x > 1]
  obj    = { for k, v in var.m : k => v... }
  fn     = provider::aws::arn_parse("x")
  splat  = var.x[*].id
  empty  = {}
  emptyl = []
}
