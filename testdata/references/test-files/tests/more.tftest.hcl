run "in_tests_dir" {
  assert {
    condition     = aws_s3_bucket.b.id != "" && aws_s3_bucket.c.id != ""
    #                                           ^^^^^^^^^^^^^^^ error[undefined-reference]
    error_message = "a file in tests/ tests the parent directory"
  }
}
