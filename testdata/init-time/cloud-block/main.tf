variable "workspace" {
  type = string
}

resource "random_pet" "org" {}

terraform {
  cloud {
    organization = random_pet.org.id
    #              ^^^^^^^^^^^^^^^^^ error[backend-config-not-static]: terraform.cloud.organization -> random_pet.org

    workspaces {
      name = var.workspace
      #      ^^^^^^^^^^^^^ info[backend-config-unresolved]: terraform.cloud.workspaces.name -> var.workspace
    }
  }
}
