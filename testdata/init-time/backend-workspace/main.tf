# A backend key that names the workspace: with no workspace selected, unresolved (an info), never "not static".
locals {
  state_key = "apps/${terraform.workspace}/terraform.tfstate"
}

terraform {
  backend "s3" {
    bucket = "state"
    key    = local.state_key
    #        ^^^^^^^^^^^^^^^ info[backend-config-unresolved]: select a workspace with --workspace or TF_WORKSPACE
    region = "eu-west-1"
  }
}
