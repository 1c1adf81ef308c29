# A multi-region estate: one AWS provider instance per region, a network module per enabled region.
# It contains deliberate mistakes; `foreach-ls check testdata/examples/multi-region` reports them.

variable "regions" {
  description = "Regions to manage, by short name."
  type = map(object({
    name    = string
    cidr    = string
    enabled = optional(bool, true)
  }))
}

locals {
  enabled_regions = { for key, region in var.regions : key => region if region.enabled }
}

provider "aws" {
  alias    = "by_region"
  for_each = var.regions
  region   = each.value.name
}

module "network" {
  source   = "./modules/network"
  for_each = local.enabled_regions
  providers = {
    aws = aws.by_region[each.key]
  }
  cidr = each.value.cidr
}

# Mistake: "apse2" is not one of the regions in terraform.tfvars (the key is "apse1").
resource "aws_s3_bucket" "backups" {
  provider = aws.by_region["apse2"]
  #                        ^^^^^^^ error[unknown-provider-instance]: did you mean `apse1`?
  bucket   = "acme-backups"
}

# Mistake: a module receives one provider instance, not the whole collection.
module "audit" {
  source = "./modules/network"
  providers = {
    aws = aws.by_region
    #     ^^^^^^^^^^^^^ error[missing-provider-instance-key]
  }
  cidr = "10.255.0.0/16"
}
