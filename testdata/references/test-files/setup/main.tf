resource "random_pet" "p" {}

output "id" {
  value = random_pet.p.id
}
