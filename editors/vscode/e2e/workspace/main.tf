# One wrong instance key, one right one, and one computed from a local (editors/vscode/e2e/e2e.mjs).
variable "regions" {
  type = map(string)
  default = {
    use1 = "us-east-1"
    euw1 = "eu-west-1"
  }
}

locals {
  primary = "euw1"
}

provider "aws" {
  alias    = "by_region"
  for_each = var.regions
  region   = each.value
}

resource "aws_s3_bucket" "logs" {
  provider = aws.by_region["usw1"]
  bucket   = "logs"
}

resource "aws_s3_bucket" "backups" {
  provider = aws.by_region["use1"]
  bucket   = "backups"
}

resource "aws_s3_bucket" "primary" {
  provider = aws.by_region[local.primary]
  bucket   = "primary"
}
