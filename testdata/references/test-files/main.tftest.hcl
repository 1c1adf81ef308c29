run "setup" {
  module {
    source = "./setup"
  }

  assert {
    condition     = random_pet.p.id != ""
    error_message = "no pet"
  }

  assert {
    condition     = aws_s3_bucket.b.id != ""
    #               ^^^^^^^^^^^^^^^ error[undefined-reference]
    error_message = "the setup module has no bucket"
  }
}

run "main" {
  variables {
    name = run.setup.id
  }

  assert {
    condition     = aws_s3_bucket.b.bucket == var.name && output.name != ""
    error_message = "wrong bucket ${aws_s3_bucket.bb.id}"
    #                               ^^^^^^^^^^^^^^^^ error[undefined-reference]: did you mean `aws_s3_bucket.b`?
  }

  assert {
    condition     = module.net.id != "" && module.net.ids != "" && module.nett.id != ""
    #                                                 ^^^ error[undefined-reference]: did you mean `id`?
    #                                                              ^^^^^^^^^^^ error[undefined-reference]: did you mean `module.net`?
    error_message = "no network"
  }

  expect_failures = [aws_s3_bucket.gone, var.name, output.name]
  #                  ^^^^^^^^^^^^^^^^^^ error[undefined-reference]
}
