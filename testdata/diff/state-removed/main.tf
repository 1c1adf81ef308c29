# `aws_s3_bucket.old` and the module call `site` were taken out of the configuration with `removed` blocks that
# keep the real objects (the default; `lifecycle { destroy = false }` says so): they are forgotten, not destroyed.
# `aws_s3_bucket.scratch` is removed with `lifecycle { destroy = true }`: it is destroyed. `aws_s3_bucket.tmp`
# has no block at all: destroyed.
removed {
  from = aws_s3_bucket.old
}

removed {
  from = module.site

  lifecycle {
    destroy = false
  }
}

removed {
  from = aws_s3_bucket.scratch

  lifecycle {
    destroy = true
  }
}

resource "aws_s3_bucket" "kept" {
  for_each = toset(["a"])
}
