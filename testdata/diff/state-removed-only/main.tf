# The bucket was taken out of the configuration with a `removed` block (OpenTofu 1.7+, which keeps the real object):
# nothing is destroyed, so `--deny-destroy` passes.
removed {
  from = aws_s3_bucket.old
}
