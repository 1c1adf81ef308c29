# --workspace (here from fixture.toml) wins over the workspace selected in .terraform/environment, as TF_WORKSPACE
# does in OpenTofu.
locals {
  ws = terraform.workspace
  #    ^^^^^^^^^^^^^^^^^^^ value: "staging"
}
