# `for_each` was removed from `aws.regional` while the state still has resources created through its instances.
provider "aws" {
#        ^^^^^ error[provider-instance-removed-with-resources]: `aws.regional` no longer has `for_each`, but the state still has 1 resource instance created through provider instance `aws.regional["eu"]`
  alias  = "regional"
  region = "eu-west-1"
}

resource "aws_s3_bucket" "b" {
  provider = aws.regional
}
