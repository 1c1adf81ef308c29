# Checked as `foreach-ls check live/prod` inside a repository: the file beside the checked path is read, because
# the read boundary is the repository (the nearest directory above with `.git`), not the checked path.
provider "aws" {
  alias    = "by_region"
  for_each = jsondecode(file("${path.module}/../../shared/regions.json"))
  region   = each.value
}

resource "aws_s3_bucket" "logs" {
  provider = aws.by_region["apse2"]
  #                        ^^^^^^^ error[unknown-provider-instance]
}
