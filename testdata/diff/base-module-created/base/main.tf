variable "regions" {
  type    = set(string)
  default = ["eu"]
}

module "site" {
  source   = "./site"
  for_each = var.regions
}

resource "aws_s3_bucket" "old" {
}
