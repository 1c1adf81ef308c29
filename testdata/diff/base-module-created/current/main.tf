# Two new module instances of thirteen resource instances each. `module.site["us"]` is created with everything
# inside it (its first ten listed); a moved block carries `aws_s3_bucket.old` into `module.site["ap"]`, so that
# one's bucket is a move, not a create, and the rest of it is listed.
variable "regions" {
  type    = set(string)
  default = ["eu", "ap", "us"]
}

module "site" {
  source   = "./site"
  for_each = var.regions
}

moved {
  from = aws_s3_bucket.old
  to   = module.site["ap"].aws_s3_bucket.extra
}
