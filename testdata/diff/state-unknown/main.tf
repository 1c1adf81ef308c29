# The buckets' keys come from a data source and the sites' from a resource: neither is known before apply, so the
# instances of the state they would keep or destroy are listed as unknown, with the reason.
data "aws_s3_objects" "inventory" {
  bucket = "inventory"
}

resource "aws_s3_bucket" "b" {
  for_each = toset(data.aws_s3_objects.inventory.keys)
}

resource "random_pet" "p" {
}

module "site" {
  source = "./site"
  count  = length(random_pet.p.id)
}
