# A root with a remote backend keeps no local state: a stale `terraform.tfstate` (left from before the backend was
# configured) is not read. `tofu state pull | foreach-ls check --state -` checks against the real state.
terraform {
  backend "s3" {
    bucket = "tfstate"
    key    = "prod.tfstate"
    region = "eu-west-1"
  }
}

provider "aws" {
  alias    = "by_region"
  for_each = toset(["us"])
  region   = each.key
}
