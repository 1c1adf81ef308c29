# The root calls a platform module once; the platform module owns a multi-instance provider and fans out to a
# service module per region. The mistake is two levels down.
module "platform" {
  source = "./modules/platform"
  regions = {
    us = "us-east-1"
    eu = "eu-west-1"
  }
}
