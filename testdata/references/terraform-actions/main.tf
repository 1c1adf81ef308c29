# A Terraform 1.14 module: OpenTofu refuses its `action` block (`unknown-block-type` says so), and the references
# to the action are not reported again as undeclared resources. A reference to a resource that is really missing
# still is.
action "aws_lambda_invoke" "notify" {
# @0..6 error[unknown-block-type]
  config {
    function_name = "notify"
  }
}

resource "aws_s3_bucket" "logs" {
  bucket = "logs"

  lifecycle {
    action_trigger {
      events  = [after_create]
      actions = [action.aws_lambda_invoke.notify]
    }
  }
}

output "missing" {
  value = aws_s3_bucket.log.id
  #       ^^^^^^^^^^^^^^^^^ error[undefined-reference]
}
