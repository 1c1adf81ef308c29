# The arguments of a call whose module is not loaded (a git or registry source `tofu init` has not installed here)
# are not evaluated: nothing here reads them, and OpenTofu evaluates them only while planning, with values that a
# var file this check was not given may supply (binbashar/le-tf-infra-aws in the dev corpus).
variable "external_accounts" {
  type    = map(any)
  default = {}
}

module "role" {
  source            = "github.com/example/terraform-aws-iam.git//modules/role?ref=v5.60.0"
  trusted_role_arns = ["arn:aws:iam::${var.external_accounts.north_cloud.aws_account_id}:root"]
}

# A loaded module's arguments are evaluated: its variables read them.
module "local" {
  source = "./child"
  name   = var.external_accounts.north_cloud.name
  #                             ^^^^^^^^^^^^ error[evaluation-error]: north_cloud
}
