# The root calls a module once; that module declares the multi-instance provider and passes instances on.

module "regional" {
  source = "./regional"
  regions = {
    eu-west-1 = { cidr = "10.1.0.0/16" }
  }
}
