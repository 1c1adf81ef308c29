# OpenTofu 1.12's top-level `language` block is valid; Terraform-only blocks are not, and say so.
language {
  compatible_with {
    opentofu = ">= 1.12.0"
  }
}

action "aws_lambda_invoke" "notify" {
# @0..6 error[unknown-block-type]: `action` blocks are Terraform 1.14; OpenTofu has none
  config {
    function_name = "notify"
  }
}
