# The buckets are declared in buckets.tofu, which OpenTofu reads instead of buckets.tf.
