# A keyed module instance (`module.regional["eu"]`) whose resources were created through `aws.by_region["eu"]`; the
# state is from Terraform (registry.terraform.io), which names the same provider.
provider "aws" {
  alias    = "by_region"
  for_each = toset(["us"])
  #          ^^^^^^^^^^^^^ error[provider-instance-removed-with-resources]: (`module.regional["eu"].aws_s3_bucket.b`, `module.regional["eu"].aws_s3_bucket.c[0]`)
  region   = each.key
}

module "regional" {
  source   = "./regional"
  for_each = toset(["us"])
  providers = {
    aws = aws.by_region[each.key]
  }
}
