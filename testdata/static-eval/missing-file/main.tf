# A file function reading a file that does not exist in the checkout gives an unknown value, not an error: such
# files are often generated before OpenTofu runs (keys, rendered JSON) or not committed. Whatever depends on it is
# not known statically, with that reason. A file that exists but cannot be read stays an error.

locals {
  public_key = file("${path.module}/keys/deploy.pub")
  #            ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ value: unknown
  accounts   = jsondecode(file("${path.module}/generated/accounts.json"))
  rendered   = templatefile("${path.module}/templates/user_data.sh.tpl", { name = "web" })
  #            ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ value: unknown
  checksum   = filesha256("${path.module}/dist/lambda.zip")
  #            ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ value: unknown
  binary     = file("${path.module}/data.bin")
  #                 ^^^^^^^^^^^^^^^^^^^^^^^^^ error[evaluation-error]: not valid UTF-8
  directory  = file("${path.module}/present")
  #            ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[evaluation-error]: cannot read
}

provider "aws" {
  alias    = "by_account"
  for_each = local.accounts
  #          ^^^^^^^^^^^^^^ info[provider-for-each-unresolved]: depend on `file("./generated/accounts.json")`, a file that does not exist here (it may be created before OpenTofu runs)
  region   = each.value.region
}
