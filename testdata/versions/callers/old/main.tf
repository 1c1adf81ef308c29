# A second root calling the same child admits 1.6 and later: under it, the child's provider for_each is too new.
terraform {
  required_version = ">= 1.6"
}

module "child" {
  source = "../child"
}
