# One binary runs a root and every module it calls: this root's `>= 1.9` keeps 1.6 to 1.8 out for the child too.
terraform {
  required_version = ">= 1.9"
}

module "child" {
  source = "./child"
}
