locals {
  gitrepo = "git::https://example.com/org/network.git?ref=v1.2.0"
  modules = "./modules"
}

module "network" {
  source = local.gitrepo
}

module "app" {
  source = "${local.modules}/app"
}
