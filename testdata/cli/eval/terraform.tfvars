regions = {
  us = { cidr = "10.0.0.0/16" }
  eu = { cidr = "10.1.0.0/16", enabled = false }
}
env = "from-tfvars"
