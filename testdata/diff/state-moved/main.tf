# Four `moved` blocks: a resource renamed, a resource moved into a module call, one moved out of a module call, and
# a module call renamed and given a key. Nothing is destroyed. The queue is new.
resource "aws_s3_bucket" "new" {
}

moved {
  from = aws_s3_bucket.old
  to   = aws_s3_bucket.new
}

module "net" {
  source = "./net"
}

moved {
  from = aws_vpc.main
  to   = module.net.aws_vpc.main
}

resource "aws_iam_role" "r" {
}

moved {
  from = module.legacy.aws_iam_role.r
  to   = aws_iam_role.r
}

module "site" {
  source   = "./site"
  for_each = toset(["eu"])
}

moved {
  from = module.web
  to   = module.site["eu"]
}

resource "aws_sqs_queue" "q" {
}
