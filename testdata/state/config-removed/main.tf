# The `aws.use1` block was deleted while the state still has resources created through it; the default `aws`
# configuration that remains is where the finding goes. `aws_s3_bucket.old` is still declared (now through the
# default configuration), so OpenTofu takes its provider from the configuration: only the orphan `aws_sqs_queue.q`
# traps. The state binds `google` resources to the default configuration of a provider this root declares no block
# for: it exists implicitly, so nothing is reported.
provider "aws" {
#        ^^^^^ error[provider-config-removed-with-resources]: this module no longer has provider configuration `aws.use1`, but the state still has 1 resource instance created through it (`aws_sqs_queue.q[0]`)
  region = "eu-west-1"
}

resource "aws_s3_bucket" "old" {
  provider = aws
}
